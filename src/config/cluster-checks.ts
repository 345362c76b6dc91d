import { vpcZones } from "../network/network-config";
import { isWindowsNodeClass } from "../provisioners/ami-selection";
import type { NodeClassConfig } from "../provisioners/node-class-schema";
import type { NodePoolConfig } from "../provisioners/node-pool-schema";
import { zoneProblem } from "../shared/availability-zones";
import { resourceNames } from "../shared/resource-names";
import type { FieldCheck } from "../shared/schema-helpers";

/** The fields of a cluster config that the checks below read. */
interface CheckedFields {
  readonly name: string;
  readonly region: string;
  readonly network: { readonly vpcId?: string; readonly availabilityZones?: readonly string[] };
  readonly nodeClasses: readonly NodeClassConfig[];
  readonly nodePools: readonly NodePoolConfig[];
}

/** Checks that relate sections owned by different rooms. */
export const CLUSTER_CHECKS: readonly FieldCheck<CheckedFields>[] = [
  {
    // The controller may pass only this cluster's node roles to EC2 (its PassRole statement), and only they
    // have the access entries that let nodes join: EC2_LINUX, and EC2_WINDOWS for the Windows role.
    reads: ["name", "nodeClasses.*.role", "nodeClasses.*.amiAlias", "nodeClasses.*.amiSelectorTerms", "nodeClasses.*.amiFamily"],
    check: ({ name, nodeClasses }, report) => {
      const names = resourceNames(name);
      nodeClasses.forEach((nodeClass, i) => {
        const nodeRole = isWindowsNodeClass(nodeClass) ? names.karpenterWindowsNodeRole : names.karpenterNodeRole;
        if (nodeClass.role !== undefined && nodeClass.role !== nodeRole) {
          report(
            ["nodeClasses", i, "role"],
            nodeClass.role,
            `must be ${nodeRole} or omitted: Karpenter may pass only this cluster's node roles, and only they may join the cluster`,
          );
        }
      });
    },
  },
  {
    // A pool zone without a subnet of the new VPC would leave its NodeClaims unlaunchable.
    reads: ["region", "network.vpcId", "network.availabilityZones", "nodePools.*.zones"],
    check: ({ region, network, nodePools }, report) => {
      if (network.vpcId !== undefined) return;
      const zones = vpcZones(network, region);
      nodePools.forEach((pool, i) => {
        pool.zones?.forEach((zone, j) => {
          // A name that is no zone of the region is reported once, by the provisioners' zone check.
          if (zoneProblem(zone, region) === undefined && !zones.includes(zone)) {
            report(["nodePools", i, "zones", j], zone, `has no subnet in this VPC; the VPC's zones are ${zones.join(", ")}`);
          }
        });
      });
    },
  },
];
