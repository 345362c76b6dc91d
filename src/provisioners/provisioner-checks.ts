import { zoneIdProblem, zoneProblem } from "../shared/availability-zones";
import type { FieldCheck, IssuePath } from "../shared/schema-helpers";
import { LABEL } from "../shared/vocabulary/well-known-labels";
import { isWindowsNodeClass } from "./ami-selection";
import type { NodeClassConfig } from "./node-class-schema";
import type { NodePoolConfig } from "./node-pool-schema";
import { DEFAULT_NODE_CLASS_NAME } from "./provisioner-defaults";

/** What the checks across node classes and NodePools read from the cluster config. */
export interface Provisioners {
  readonly region: string;
  readonly nodeClasses: readonly NodeClassConfig[];
  readonly nodePools: readonly NodePoolConfig[];
}

/** The checks that relate NodePools to their node classes and to the cluster's region. */
export const PROVISIONER_CHECKS: readonly FieldCheck<Provisioners>[] = [
  {
    reads: ["nodeClasses.*.name", "nodePools.*.nodeClass"],
    check: ({ nodeClasses, nodePools }, report) => {
      const classNames = [...new Set(nodeClasses.map((c) => c.name))];
      nodePools.forEach((pool, i) => {
        if (classNames.includes(pool.nodeClass)) return;
        // The user may not have written "default": it is the default of nodeClass, and of nodePools.
        const hint =
          pool.nodeClass === DEFAULT_NODE_CLASS_NAME ? ` (the default node class; set nodeClass, or keep a node class named ${DEFAULT_NODE_CLASS_NAME})` : "";
        report(["nodePools", i, "nodeClass"], pool.nodeClass, `must name one of the nodeClasses: ${classNames.join(", ")}${hint}`);
      });
    },
  },
  {
    // EKS runs Windows nodes on amd64 only: a pool that allows arm64 with a Windows class finds no instance type.
    reads: [
      "nodeClasses.*.name",
      "nodeClasses.*.amiAlias",
      "nodeClasses.*.amiSelectorTerms",
      "nodeClasses.*.amiFamily",
      "nodePools.*.nodeClass",
      "nodePools.*.architectures",
    ],
    check: ({ nodeClasses, nodePools }, report) => {
      const windowsClasses = new Set(nodeClasses.filter(isWindowsNodeClass).map((c) => c.name));
      nodePools.forEach((pool, i) => {
        if (windowsClasses.has(pool.nodeClass) && pool.architectures.includes("arm64")) {
          report(
            ["nodePools", i, "architectures"],
            pool.architectures,
            `must be [amd64] with the Windows node class ${pool.nodeClass}: EKS runs Windows nodes on amd64 only`,
          );
        }
      });
    },
  },
  {
    // Karpenter builds reserved offerings only from the reservations its node class selects: without
    // selector terms a pool limited to `reserved` never launches, and `reserved` beside others is dead weight.
    reads: ["nodeClasses.*.name", "nodeClasses.*.capacityReservationSelectorTerms", "nodePools.*.nodeClass", "nodePools.*.capacityTypes"],
    check: ({ nodeClasses, nodePools }, report) => {
      const withReservations = new Set(nodeClasses.filter((c) => c.capacityReservationSelectorTerms !== undefined).map((c) => c.name));
      nodePools.forEach((pool, i) => {
        const k = pool.capacityTypes.indexOf("reserved");
        if (k >= 0 && !withReservations.has(pool.nodeClass)) {
          report(
            ["nodePools", i, "capacityTypes", k],
            "reserved",
            `needs capacityReservationSelectorTerms on the node class ${pool.nodeClass}: Karpenter launches reserved capacity only from the reservations a node class selects`,
          );
        }
      });
    },
  },
  {
    reads: ["region", "nodePools.*.zones"],
    check: ({ region, nodePools }, report) => {
      nodePools.forEach((pool, i) => {
        pool.zones?.forEach((zone, k) => {
          const problem = zoneProblem(zone, region);
          if (problem !== undefined) report(["nodePools", i, "zones", k], zone, problem);
        });
      });
    },
  },
  {
    // Raw requirements and labels on the zone keys name zones too: a zone ID where a name belongs (or the
    // reverse) matches no subnet, and an In requirement that matches none keeps the pool from launching.
    reads: ["region", "nodePools.*.requirements", "nodePools.*.labels"],
    check: ({ region, nodePools }, report) => {
      nodePools.forEach((pool, i) => {
        for (const { key, value, path } of zoneValuesOf(pool, i)) {
          const problem = key === LABEL.zone ? zoneProblem(value, region) : zoneIdProblem(value, region);
          if (problem !== undefined) report(path, value, problem);
        }
      });
    },
  },
];

/** The values a pool gives the zone keys, in requirements (In and NotIn) and labels, with where each sits. */
function zoneValuesOf(pool: NodePoolConfig, i: number): { key: string; value: string; path: IssuePath }[] {
  const zoneKeys: readonly string[] = [LABEL.zone, LABEL.zoneId];
  const fromRequirements = pool.requirements.flatMap((r, j) =>
    zoneKeys.includes(r.key) && (r.operator === "In" || r.operator === "NotIn")
      ? (r.values ?? []).map((value, k) => ({ key: r.key, value, path: ["nodePools", i, "requirements", j, "values", k] as IssuePath }))
      : [],
  );
  const fromLabels = Object.entries(pool.labels)
    .filter(([key]) => zoneKeys.includes(key))
    .map(([key, value]) => ({ key, value, path: ["nodePools", i, "labels", key] as IssuePath }));
  return [...fromRequirements, ...fromLabels];
}
