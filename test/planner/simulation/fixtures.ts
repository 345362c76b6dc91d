import { CATALOGUE_FORMAT, type CatalogueRow } from "../../../src/instance-catalogue/catalogue-file";
import { catalogueFrom, type InstanceType } from "../../../src/instance-catalogue/instance-catalogue";
import type { Requirement } from "../../../src/instance-catalogue/requirements";
import type { PoolModel, Taint } from "../../../src/planner/model";
import { withDaemonOverhead } from "../../../src/planner/simulation/daemon-overhead";
import { domainUniverse } from "../../../src/planner/simulation/domain-universe";
import { NodeClaimIds } from "../../../src/planner/simulation/node-claim-ids";
import { NodeClaimTemplate } from "../../../src/planner/simulation/node-claim-template";
import { type PodData, podDataOf } from "../../../src/planner/simulation/pod-data";
import { FitCache } from "../../../src/planner/simulation/pod-fit";
import { type PoolOfferings, poolOfferings } from "../../../src/planner/simulation/pool-offerings";
import { schedulingForms } from "../../../src/planner/simulation/preferences";
import { Scheduler } from "../../../src/planner/simulation/scheduler";
import { contextOfOfferings, type SimulationContext } from "../../../src/planner/simulation/simulation-context";
import type { StateNode } from "../../../src/planner/simulation/state-node";
import { type PodCount, Topology } from "../../../src/planner/simulation/topology";
import { type DaemonSetShape, PLAIN_POD, type PodGroup, type PodShape } from "../../../src/planner/workload/workload-model";
import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";

// A catalogue of four made-up instance types with round numbers, so that every expectation of the simulation's
// unit tests can be worked out by hand: allocatable is what the row says (AL2023, default kubelet), capacity
// against pool limits is vCPU x 1000 millicores, prices are on-demand only (offline: spot at that price).
//
//   type      arch   vCPU  memory    allocatable          pods  $/hour
//   m.small   amd64  2     4096 MiB  2000m / 4096 MiB     10    0.10
//   m.large   amd64  4     8192 MiB  4000m / 8192 MiB     20    0.20
//   g.small   arm64  2     4096 MiB  2000m / 4096 MiB     10    0.08
//   g.large   arm64  4     8192 MiB  4000m / 8192 MiB     20    0.16
//
// The catalogue sorts types by name, so a pool's candidates are g.large, g.small, m.large, m.small.

export const MIB = 2 ** 20;
export const ZONES = ["zone-a", "zone-b", "zone-c"] as const;
export const REGION = "test-region";

const LABEL_KEYS = [LABEL.arch, LABEL.os, LABEL.instanceType, LABEL.instanceFamily, LABEL.instanceSize, LABEL.instanceCategory, LABEL.instanceCpu];

function row(name: string, arch: string, vcpu: number, memoryMiB: number, pods: number): CatalogueRow {
  const [family, size] = name.split(".");
  return [name, [arch, "linux", name, family, size, family, String(vcpu)], [vcpu, memoryMiB, pods], [vcpu * 1000, memoryMiB, pods], []];
}

export const catalogue = catalogueFrom({
  format: CATALOGUE_FORMAT,
  source: "test",
  asOf: "2026-01-01T00:00:00Z",
  region: REGION,
  labelKeys: LABEL_KEYS,
  resourceKeys: [],
  types: [
    row("m.small", "amd64", 2, 4096, 10),
    row("m.large", "amd64", 4, 8192, 20),
    row("g.small", "arm64", 2, 4096, 10),
    row("g.large", "arm64", 4, 8192, 20),
  ],
  onDemandUsd: { "m.small": 0.1, "m.large": 0.2, "g.small": 0.08, "g.large": 0.16 },
});

export function instanceType(name: string): InstanceType {
  const type = catalogue.type(name);
  if (type === undefined) throw new Error(`no type ${name} in the test catalogue`);
  return type;
}

/** Karpenter's default root volume, 20Gi (amifamily.DefaultEBS): what an EC2NodeClass without block devices gives. */
export const DEFAULT_ROOT_VOLUME_BYTES = 20 * 2 ** 30;

/** A NodePool of the test catalogue: no requirements, weight 0, no limits, AL2023 with the default root volume. */
export function pool(name: string, fields: Partial<PoolModel> = {}): PoolModel {
  return {
    name,
    weight: 0,
    requirements: [],
    labels: {},
    taints: [],
    limits: {},
    nodeClass: { name: "default", amiFamily: "AL2023", os: "linux", kubelet: {}, ephemeralStorageBytes: DEFAULT_ROOT_VOLUME_BYTES },
    ...fields,
  };
}

export const inValues = (key: string, ...values: string[]): Requirement => ({ key, operator: "In", values });

export const newFitCache = (): FitCache => new FitCache(catalogue.labelKeys, REGION);

/** Each pool's offerings in the test catalogue's zones, offline prices, with the DaemonSets' overhead. */
export function offeringsOf(pools: readonly PoolModel[], fits: FitCache, daemonSets: readonly DaemonSetShape[] = []): PoolOfferings[] {
  const context = {
    catalogue,
    prices: { spotKnown: false, onDemand: (t: InstanceType) => t.onDemandUsd, spot: () => undefined },
    region: REGION,
    zones: ZONES,
    zonesKnown: true,
  };
  return pools.map((p) => withDaemonOverhead(poolOfferings(p, p.requirements, context), daemonSets, fits));
}

/** A pod shape of `cpu` millicores and `memoryMiB`, with whatever else the test sets. */
export const podShape = (cpu: number, memoryMiB: number, extra: Partial<PodShape> = {}): PodShape => ({
  ...PLAIN_POD,
  cpuMillis: cpu,
  memoryBytes: memoryMiB * MIB,
  ...extra,
});

/** `replicas` identical pods of a Deployment named `name`, labelled app=<name>. */
export function podGroup(name: string, replicas: number, pod: PodShape, labels: Readonly<Record<string, string>> = { app: name }): PodGroup {
  return { id: `default/${name}`, kind: "Deployment", namespace: "default", name, labels, replicas, pod, file: "test" };
}

export function daemonSet(name: string, pod: PodShape): DaemonSetShape {
  return { id: `kube-system/${name}`, pod, file: "test" };
}

export interface RunningNodeOptions {
  readonly zone?: string;
  readonly capacityType?: string;
  /** The NodePool that launched it; none for a node Karpenter does not own. */
  readonly pool?: string;
  readonly pods?: readonly PodCount[];
  readonly daemonSetPods?: readonly DaemonSetShape[];
  readonly taints?: readonly Taint[];
  readonly labels?: Readonly<Record<string, string>>;
  readonly initialized?: boolean;
}

/** A node already running, of a type of the test catalogue, labelled as Karpenter labels its nodes. */
export function runningNode(name: string, typeName: string, options: RunningNodeOptions = {}): StateNode {
  const type = instanceType(typeName);
  const { zone = "zone-a", capacityType = "on-demand" } = options;
  return {
    name,
    labels: {
      ...type.labels,
      [LABEL.zone]: zone,
      [LABEL.capacityType]: capacityType,
      [LABEL.hostname]: name,
      ...(options.pool === undefined ? {} : { [LABEL.nodePool]: options.pool }),
      ...options.labels,
    },
    taints: options.taints ?? [],
    allocatable: { cpu: type.allocatable.cpuMillis, memory: type.allocatable.memoryBytes, pods: type.allocatable.pods, extended: {} },
    capacity: { cpu: type.vcpu * 1000, pods: type.allocatable.pods },
    pods: options.pods ?? [],
    daemonSetPods: options.daemonSetPods ?? [],
    initialized: options.initialized ?? true,
  };
}

export interface Simulation {
  readonly fits: FitCache;
  readonly pools: readonly PoolOfferings[];
  readonly templates: readonly NodeClaimTemplate[];
  readonly topology: Topology;
  readonly scheduler: Scheduler;
  /** The pod data of each group, by name. */
  readonly pods: ReadonlyMap<string, PodData>;
}

/** The simulation context of these pools, tried in the order given, on the test catalogue in its three zones. */
export function simulationOf(pools: readonly PoolModel[], daemonSets: readonly DaemonSetShape[] = []): SimulationContext {
  const fits = newFitCache();
  return contextOfOfferings(offeringsOf(pools, fits, daemonSets), { daemonSets, fits, catalogue, region: REGION, zonesKnown: true });
}

export interface SimulationOptions {
  readonly pools: readonly PoolModel[];
  readonly groups: readonly PodGroup[];
  readonly daemonSets?: readonly DaemonSetShape[];
  readonly existing?: readonly StateNode[];
}

/** One provisioning loop's scheduler over these pools, pods and nodes (pools in the order given). */
export function simulation(options: SimulationOptions): Simulation {
  const fits = newFitCache();
  const daemonSets = options.daemonSets ?? [];
  const pools = offeringsOf(options.pools, fits, daemonSets);
  const existing = options.existing ?? [];
  const tolerate = pools.some((p) => p.pool.taints.some((t) => t.effect === "PreferNoSchedule"));
  const bound = existing.flatMap((n) => n.pods.map((p) => p.group)).filter((g) => !options.groups.includes(g));
  const topology = new Topology(
    [...options.groups, ...new Set(bound)].map((group) => ({ group, forms: schedulingForms(group.pod, tolerate) })),
    domainUniverse(pools, existing),
  );
  const templates = pools.map((p) => new NodeClaimTemplate(p, false));
  const scheduler = new Scheduler({ templates, existingNodes: existing, daemonSets, topology, fits, nodeClaimIds: new NodeClaimIds() });
  const pods = new Map(options.groups.map((g) => [g.name, podDataOf(g, tolerate)]));
  return { fits, pools, templates, topology, scheduler, pods };
}

/** The names of the types a NodeClaim may still launch as. */
export const typeNames = (candidates: readonly { readonly type: InstanceType }[]): string[] => candidates.map((c) => c.type.name);
