import fc from "fast-check";
import { loadInstanceCatalogue } from "../../../src/instance-catalogue/instance-catalogue";
import { clusterModelFromDocument } from "../../../src/planner/cluster-model";
import { buildPlan } from "../../../src/planner/plan/build-plan";
import type { Plan } from "../../../src/planner/plan/plan-types";
import { PLAIN_POD, type PodGroup, type Workload } from "../../../src/planner/workload/workload-model";

// Properties of every plan, over generated NodePools (architectures, capacity types, categories, limits,
// weights, taints) and workloads (sizes, replicas, arch and capacity-type pins, tolerations), on the real
// catalogue. Expected values come from the catalogue's published numbers and the inputs, never from the
// planner's own arithmetic. Counters make sure the properties were not satisfied vacuously.

const catalogue = loadInstanceCatalogue();
const MIB = 2 ** 20;
/** aws-node 50m + kube-proxy 100m, two pods: on every node of these Linux pools (no workload DaemonSets here). */
const OVERHEAD = { cpu: 150, pods: 2 };
const RUNS = 40;

const poolArb = fc.record({
  architectures: fc.subarray(["amd64", "arm64"], { minLength: 1 }),
  capacityTypes: fc.subarray(["spot", "on-demand"], { minLength: 1 }),
  instanceCategories: fc.subarray(["c", "m", "r"], { minLength: 1 }),
  cpuLimit: fc.option(fc.integer({ min: 2, max: 300 }), { nil: undefined }),
  weight: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
  tainted: fc.boolean(),
});

const groupArb = fc.record({
  cpuMillis: fc.integer({ min: 0, max: 160 }).map((n) => n * 50),
  memoryMiB: fc.integer({ min: 0, max: 256 }).map((n) => n * 128),
  replicas: fc.integer({ min: 1, max: 40 }),
  arch: fc.option(fc.constantFrom("amd64", "arm64"), { nil: undefined }),
  onDemand: fc.boolean(),
  tolerates: fc.boolean(),
});

const caseArb = fc.record({ pools: fc.array(poolArb, { minLength: 1, maxLength: 3 }), groups: fc.array(groupArb, { minLength: 1, maxLength: 6 }) });
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

function configOf(c: Case): object {
  return {
    name: "prop",
    nodePools: c.pools.map((p, i) => ({
      name: `p${i}`,
      architectures: p.architectures,
      capacityTypes: p.capacityTypes,
      instanceCategories: p.instanceCategories,
      ...(p.cpuLimit === undefined ? {} : { limits: { cpu: p.cpuLimit, memory: "100000Gi" } }),
      ...(p.weight === undefined ? {} : { weight: p.weight }),
      ...(p.tainted ? { taints: [{ key: "example.com/dedicated", value: `p${i}`, effect: "NoSchedule" }] } : {}),
    })),
  };
}

function workloadOf(groups: Case["groups"]): Workload {
  return {
    groups: groups.map(
      (g, i): PodGroup => ({
        id: `default/g${i}`,
        kind: "Deployment",
        namespace: "default",
        name: `g${i}`,
        labels: {},
        replicas: g.replicas,
        file: "generated",
        pod: {
          ...PLAIN_POD,
          cpuMillis: g.cpuMillis,
          memoryBytes: g.memoryMiB * MIB,
          nodeSelector: [
            ...(g.arch === undefined ? [] : [{ key: "kubernetes.io/arch", operator: "In" as const, values: [g.arch] }]),
            ...(g.onDemand ? [{ key: "karpenter.sh/capacity-type", operator: "In" as const, values: ["on-demand"] }] : []),
          ],
          tolerations: g.tolerates ? [{ key: "example.com/dedicated", operator: "Exists" }] : [],
        },
      }),
    ),
    daemonSets: [],
    pdbs: [],
    warnings: [],
  };
}

function planFor(c: Case, groups = c.groups, change: (g: PodGroup, i: number) => PodGroup = (g) => g): Plan {
  const workload = workloadOf(groups);
  return buildPlan({
    cluster: clusterModelFromDocument(configOf(c), "generated"),
    configSource: "generated",
    catalogue,
    workload: { ...workload, groups: workload.groups.map((g, i) => change({ ...g, labels: { app: `g${i}` } }, i)) },
    workloadSource: "generated",
  });
}

/** The group with required anti-affinity on hostname against its own pods: one per node. */
const spreadOverNodes = (g: PodGroup): PodGroup => ({
  ...g,
  pod: {
    ...g.pod,
    podAntiAffinity: [
      {
        topologyKey: "kubernetes.io/hostname",
        selector: { matchLabels: { app: g.labels.app }, matchExpressions: [] },
        namespaces: { kind: "own" },
        matchLabelKeys: [],
      },
    ],
  },
});

describe("plan properties", () => {
  it("every node's allocatable, minus the DaemonSet overhead, holds all its pods, and their arch pins", () => {
    let nodes = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const plan = planFor(c);
        const arch = new Map(c.groups.map((g, i) => [`default/g${i}`, g.arch]));
        for (const detail of plan.details) {
          for (const node of detail.nodes) {
            nodes++;
            const published = node.type.allocatable;
            expect(node.cpuRequested + OVERHEAD.cpu).toBeLessThanOrEqual(published.cpuMillis);
            expect(node.memoryRequested).toBeLessThanOrEqual(published.memoryBytes);
            expect(node.pods + OVERHEAD.pods).toBeLessThanOrEqual(published.pods);
            expect(node.groups.reduce((n, g) => n + g.count, 0)).toBe(node.pods);
            for (const g of node.groups) if (arch.get(g.id) !== undefined) expect(node.type.arch).toBe(arch.get(g.id));
          }
        }
      }),
      { numRuns: RUNS },
    );
    expect(nodes).toBeGreaterThan(RUNS);
  });

  it("no pool goes over its limits, and every pod is either on a node or reported unschedulable", () => {
    let limited = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const plan = planFor(c);
        const total = c.groups.reduce((n, g) => n + g.replicas, 0);
        for (const detail of plan.details) {
          c.pools.forEach((p, i) => {
            if (p.cpuLimit === undefined) return;
            const vcpus = detail.nodes.filter((n) => n.pool === `p${i}`).reduce((s, n) => s + n.type.vcpu, 0);
            expect(vcpus).toBeLessThanOrEqual(p.cpuLimit);
            if (vcpus > 0) limited++;
          });
          expect(detail.podsScheduled + detail.podsUnschedulable).toBe(total);
        }
      }),
      { numRuns: RUNS },
    );
    expect(limited).toBeGreaterThan(0);
  });

  it("never uses fewer nodes than the resources demand, nor costs less than the floor", () => {
    const largest = {
      cpu: Math.max(...catalogue.types.map((t) => t.allocatable.cpuMillis)) - OVERHEAD.cpu,
      memory: Math.max(...catalogue.types.map((t) => t.allocatable.memoryBytes)),
      pods: Math.max(...catalogue.types.map((t) => t.allocatable.pods)) - OVERHEAD.pods,
    };
    fc.assert(
      fc.property(caseArb, (c) => {
        const plan = planFor(c);
        plan.details.forEach((d, i) => {
          const bound = Math.max(
            Math.ceil(d.cpuRequested / largest.cpu),
            Math.ceil(d.memoryRequested / largest.memory),
            Math.ceil(d.podsScheduled / largest.pods),
          );
          expect(d.nodes.length).toBeGreaterThanOrEqual(bound);
          if (i === 0) expect(plan.json.floorHourlyUsd).toBeLessThanOrEqual(plan.json.scenarios[0].hourlyUsd + 1e-9);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it("a scenario's cost is the sum of its nodes, and its month is 730 hours", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        for (const s of planFor(c).json.scenarios) {
          const sum = s.nodes.reduce((total, n) => total + n.hourlyUsd, 0);
          expect(Math.abs(s.hourlyUsd - sum)).toBeLessThan(1e-6);
          expect(s.monthlyUsd).toBe(Number((s.hourlyUsd * 730).toFixed(2)));
          expect(s.nodeCount).toBe(s.nodes.length);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("consolidation never costs more than the launch, and keeps every pod the launch placed on a node", () => {
    // Karpenter's consolidation deletes nodes, or replaces several by one cheaper node (never splits one): the
    // settled cluster costs at most what launched, on no more nodes, with the same pods. (Whether multiarch costs
    // less than amd64-only is not a property: with arm64 allowed Karpenter may pack everything onto one large node
    // that no single cheaper node can replace; the plan warns when it happens.)
    let consolidated = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        for (const s of planFor(c).json.scenarios) {
          expect(s.converged.hourlyUsd).toBeLessThanOrEqual(s.hourlyUsd + 1e-9);
          expect(s.converged.nodeCount).toBeLessThanOrEqual(s.nodeCount);
          expect(s.converged.nodes.reduce((n, x) => n + x.pods, 0)).toBe(s.nodes.reduce((n, x) => n + x.pods, 0));
          const sum = s.converged.nodes.reduce((total, n) => total + n.hourlyUsd, 0);
          expect(Math.abs(s.converged.hourlyUsd - sum)).toBeLessThan(1e-6);
          if (s.converged.actions.length > 0) consolidated++;
        }
      }),
      { numRuns: RUNS },
    );
    expect(consolidated).toBeGreaterThan(0);
  });

  it("is deterministic: the same input, in any order, gives the same plan", () => {
    fc.assert(
      fc.property(caseArb, fc.integer(), (c, seed) => {
        const shuffled = [...c.groups.entries()].sort(([a], [b]) => ((a * 7919 + seed) % 13) - ((b * 7919 + seed) % 13));
        const first = planFor(c);
        // Reordering the documents must not change anything but which id each group has.
        const reordered = planFor(
          c,
          shuffled.map(([, g]) => g),
        );
        expect(planFor(c).json).toEqual(first.json);
        const signature = (p: Plan) => p.json.scenarios.map((s) => [s.name, s.hourlyUsd, s.nodeCount, s.nodes.map((n) => n.instanceType).sort()]);
        expect(signature(reordered)).toEqual(signature(first));
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it("adding a hostname anti-affinity term to a workload never lowers the node count (when both plans place every pod)", () => {
    let more = 0;
    fc.assert(
      fc.property(caseArb, fc.nat(5), (c, pick) => {
        const target = pick % c.groups.length;
        const plain = planFor(c).json.scenarios[0];
        const spread = planFor(c, c.groups, (g, i) => (i === target ? spreadOverNodes(g) : g)).json.scenarios[0];
        // With pods left pending (limits), fewer nodes can mean fewer pods placed: not comparable.
        if (plain.unschedulable.length > 0 || spread.unschedulable.length > 0) return;
        expect(spread.nodeCount).toBeGreaterThanOrEqual(plain.nodeCount);
        if (spread.nodeCount > plain.nodeCount) more++;
      }),
      // A fixed seed: whether some case adds nodes (checked below) must not depend on the draw. 600 random
      // runs found no counterexample to the property itself.
      { numRuns: RUNS, seed: 17 },
    );
    expect(more).toBeGreaterThan(0);
  });

  it("a plan at the autoscalers' maximum keeps every node of the minimum, so never costs less", () => {
    let compared = 0;
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 40 }), (c, extra) => {
        const plan = planFor(c, c.groups, (g) => ({
          ...g,
          autoscaling: { source: "HorizontalPodAutoscaler", minReplicas: g.replicas, maxReplicas: g.replicas + extra },
        }));
        const min = plan.json.scenarios.find((s) => s.name === "as-configured")!;
        const max = plan.json.scenarios.find((s) => s.name === "autoscaled-max")!;
        expect(max.nodes.slice(0, min.nodes.length).map((n) => n.instanceType)).toEqual(min.nodes.map((n) => n.instanceType));
        expect(max.hourlyUsd).toBeGreaterThanOrEqual(min.hourlyUsd - 1e-9);
        compared++;
      }),
      { numRuns: RUNS },
    );
    expect(compared).toBe(RUNS);
  });
});
