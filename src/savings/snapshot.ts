import type { ClusterObjects } from "../cluster-state/cluster-objects";
import type { StateKindName } from "../cluster-state/state-kinds";
import type { InstanceCatalogue } from "../instance-catalogue/instance-catalogue";
import { listPrices } from "../planner/data/list-prices";
import type { SavingsJson } from "./savings-report";

// `--save <file>`: what a report was made from and what it said, to measure against later (`--compare`) or to
// report again (`--state` reads it). It keeps the objects as the report read them, already cut to the fields it
// reads (trim-object.ts): of a pod its name, namespace, labels, owner, the annotations the report reads, its
// scheduling, its containers' names, images, resources and host ports; no environment, no command, no volume but
// its claim's name, no Secret. And the prices of the instance types the cluster runs, and the report itself.

export const SNAPSHOT_KIND = "AutonomousEksSavingsSnapshot";
const VERSION = 1;

/** What a snapshot keeps of a pod, for its readers. */
export const SNAPSHOT_KEEPS =
  "nodes, NodePools, EC2NodeClasses, NodeClaims, PDBs, DaemonSets and volumes cut to what the report reads; of each pod its name, namespace, labels, owner, scheduling, images, resource requests and the annotations the report reads (do-not-disrupt, deletion cost, Fargate size), never its environment, command or Secrets";

export interface Snapshot {
  readonly kind: typeof SNAPSHOT_KIND;
  readonly version: number;
  readonly savedAt: string;
  readonly source: string;
  readonly keeps: string;
  readonly serverVersion?: string;
  readonly objects: Readonly<Record<StateKindName, readonly Record<string, unknown>[]>>;
  readonly unread: ClusterObjects["unread"];
  readonly prices: {
    readonly catalogue: { readonly region: string; readonly asOf: string; readonly spot: boolean };
    readonly instanceTypes: Readonly<Record<string, { readonly onDemandUsd?: number; readonly spotUsd?: Readonly<Record<string, number>> }>>;
    readonly fixed: ReturnType<typeof listPrices>;
  };
  readonly report: SavingsJson;
}

export function snapshotOf(objects: ClusterObjects, catalogue: InstanceCatalogue, report: SavingsJson): Snapshot {
  const types = new Set(
    objects.byKind.Node.flatMap((n) => {
      const labels = (n.metadata as { labels?: Record<string, string> } | undefined)?.labels ?? {};
      const type = labels["node.kubernetes.io/instance-type"] ?? labels["beta.kubernetes.io/instance-type"];
      return type === undefined ? [] : [type];
    }),
  );
  const instanceTypes: Record<string, { onDemandUsd?: number; spotUsd?: Record<string, number> }> = {};
  for (const name of [...types].sort()) {
    const type = catalogue.type(name);
    if (type !== undefined) instanceTypes[name] = { onDemandUsd: type.onDemandUsd, spotUsd: catalogue.spot?.usd[name] };
  }
  return {
    kind: SNAPSHOT_KIND,
    version: VERSION,
    savedAt: report.at,
    source: objects.source,
    keeps: SNAPSHOT_KEEPS,
    serverVersion: objects.serverVersion,
    objects: objects.byKind,
    unread: objects.unread,
    prices: { catalogue: { region: catalogue.region, asOf: catalogue.asOf, spot: catalogue.spot !== undefined }, instanceTypes, fixed: listPrices() },
    report,
  };
}

export const isSnapshot = (value: unknown): value is Snapshot =>
  typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === SNAPSHOT_KIND;

/** The objects a snapshot kept, as a state file's. */
export function objectsOfSnapshot(snapshot: Snapshot, name: string): ClusterObjects {
  const byKind = Object.fromEntries(Object.entries(snapshot.objects).map(([kind, items]) => [kind, [...items]])) as unknown as ClusterObjects["byKind"];
  return {
    source: `${name} (a snapshot of ${snapshot.source}, saved ${snapshot.savedAt})`,
    byKind,
    unread: snapshot.unread,
    warnings: [],
    serverVersion: snapshot.serverVersion,
  };
}
