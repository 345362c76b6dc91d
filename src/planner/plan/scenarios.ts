import type { Requirement } from "../../instance-catalogue/requirements";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import type { PoolModel } from "../model";

// The what-ifs, each a rewrite of every pool's rendered requirements: the same pools, weights, taints,
// limits and node classes, with the architecture or capacity-type requirement replaced. Pods keep their own
// selectors, so a pod pinned to amd64 stays on amd64 in every scenario.

export type ScenarioName = "as-configured" | "amd64-only" | "multiarch" | "on-demand-only" | "spot" | "autoscaled-max" | "jobs-burst" | "rightsized";

export interface Scenario {
  readonly name: ScenarioName;
  readonly description: string;
  /** The pool's requirements under this scenario. */
  readonly rewrite: (pool: PoolModel) => readonly Requirement[];
  /** Autoscaled workloads scale up to their maximum after the first plan, onto its nodes and new ones. */
  readonly scaleUp?: boolean;
  /** The pods of Jobs and CronJobs start after the first plan, at their parallelism, onto its nodes and new ones. */
  readonly jobs?: boolean;
  /** The workload with the requests its usage recommends (--prometheus), not as written. */
  readonly rightsized?: boolean;
}

/** Replaces every requirement on `key` with one In requirement (added where the pool had none). */
export function setIn(requirements: readonly Requirement[], key: string, values: readonly string[]): Requirement[] {
  return [...requirements.filter((r) => r.key !== key), { key, operator: "In", values }];
}

export const SCENARIOS: readonly Scenario[] = [
  { name: "as-configured", description: "the NodePools as synth renders them", rewrite: (pool) => pool.requirements },
  { name: "amd64-only", description: "every pool limited to amd64", rewrite: (pool) => setIn(pool.requirements, LABEL.arch, ["amd64"]) },
  { name: "multiarch", description: "amd64 and arm64 allowed in every pool", rewrite: (pool) => setIn(pool.requirements, LABEL.arch, ["amd64", "arm64"]) },
  { name: "on-demand-only", description: "every pool limited to on-demand", rewrite: (pool) => setIn(pool.requirements, LABEL.capacityType, ["on-demand"]) },
  {
    name: "spot",
    description: "every pool limited to spot (only with --live spot prices)",
    rewrite: (pool) => setIn(pool.requirements, LABEL.capacityType, ["spot"]),
  },
];

/**
 * The as-configured pools once every autoscaled workload reaches its maximum: what the pools' limits must
 * allow for, and what a team budgets for. The extra replicas come after the first plan, as an autoscaler
 * adds them, so the scenario keeps every node of as-configured and adds to them.
 */
const AUTOSCALED_MAX: Scenario = {
  name: "autoscaled-max",
  description: "as configured, every autoscaled workload at its maximum replicas",
  rewrite: (pool) => pool.requirements,
  scaleUp: true,
};

/**
 * The steady state (as-configured) while the Jobs and CronJobs run: their pods hold nodes only until they
 * complete, so the steady scenarios leave them out, and this one adds them, as they start, onto its nodes.
 */
const JOBS_BURST: Scenario = {
  name: "jobs-burst",
  description: "as configured, while every Job and CronJob runs its parallelism",
  rewrite: (pool) => pool.requirements,
  jobs: true,
};

/**
 * The scenarios a plan shows: spot only when spot prices are known, autoscaled-max only when an autoscaler scales
 * a workload, jobs-burst only when the workload has Jobs or CronJobs.
 */
/** The as-configured pools, every container at the requests its usage in Prometheus recommends. */
const RIGHTSIZED: Scenario = {
  name: "rightsized",
  description: "as configured, every container at the requests its usage recommends (--prometheus)",
  rewrite: (pool) => pool.requirements,
  rightsized: true,
};

export function scenariosFor(spotKnown: boolean, autoscaled: boolean, jobs = false, rightsized = false): readonly Scenario[] {
  return [
    ...SCENARIOS.filter((s) => s.name !== "spot" || spotKnown),
    ...(autoscaled ? [AUTOSCALED_MAX] : []),
    ...(jobs ? [JOBS_BURST] : []),
    ...(rightsized ? [RIGHTSIZED] : []),
  ];
}
