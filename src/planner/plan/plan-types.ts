import type { RecommendationsJson } from "../../usage/recommendations";
import type { PlannedNode } from "../simulation/launch";
import type { DaemonSetJson } from "./daemon-set-report";
import type { ScenarioName } from "./scenarios";

// The plan. PlanJson is the contract scripts (and `npm run review`) read: keep its shape. Plan adds what the
// Markdown and table renderers show beyond it.

export interface NodeJson {
  readonly pool: string;
  readonly instanceType: string;
  readonly capacityType: "spot" | "on-demand";
  /** Spot offline: priced at the on-demand rate, an upper bound of what it costs. */
  readonly priceIsUpperBound?: boolean;
  readonly arch: string;
  readonly zone?: string;
  readonly pods: number;
  readonly hourlyUsd: number;
  /** A settled node the workload's PodDisruptionBudgets keep from consolidation ("namespace/name"). */
  readonly heldByPdbs?: readonly string[];
}

/** Nodes as Karpenter's consolidation settles them (converge.ts). */
export interface ConvergedJson {
  readonly nodeCount: number;
  readonly hourlyUsd: number;
  readonly monthlyUsd: number;
  readonly nodes: readonly NodeJson[];
  /** The commands consolidation carries out on the way, in order. */
  readonly actions: readonly {
    readonly method: string;
    readonly kind: "delete" | "replace";
    readonly nodes: number;
    readonly replacement: string | null;
    readonly savingHourlyUsd: number;
  }[];
}

export interface ScenarioJson {
  readonly name: ScenarioName;
  readonly nodes: readonly NodeJson[];
  readonly nodeCount: number;
  /** The scenario's nodes alone; the base is apart. */
  readonly hourlyUsd: number;
  readonly monthlyUsd: number;
  readonly unschedulable: readonly { readonly pod: string; readonly reason: string }[];
  /** The same nodes once Karpenter's consolidation has settled them: what the scenario costs to run. */
  readonly converged: ConvergedJson;
  /** autoscaled-max only: settled again once the autoscalers are back at their minimum. */
  readonly afterScaleDown?: ConvergedJson;
}

export interface CostItems {
  readonly items: readonly { readonly what: string; readonly hourlyUsd: number }[];
  readonly hourlyUsd: number;
}

export interface PlanJson {
  readonly prices: { readonly source: string; readonly region: string; readonly asOf: string };
  readonly scenarios: readonly ScenarioJson[];
  readonly base: CostItems;
  /** The workload's pods that run on Fargate (their namespaces have a profile), apart from the nodes. */
  readonly fargateWorkload: CostItems;
  /** The workload's DaemonSets: requests on every node they run on. */
  readonly daemonSets: readonly DaemonSetJson[];
  readonly floorHourlyUsd: number;
  /** The requests usage recommends, with --prometheus: what the rightsized scenario plans. */
  readonly rightsizing?: RecommendationsJson;
  readonly warnings: readonly string[];
}

export interface ScenarioDetail {
  readonly name: ScenarioName;
  readonly description: string;
  readonly nodes: readonly PlannedNode[];
  readonly podsScheduled: number;
  readonly podsUnschedulable: number;
  readonly cpuRequested: number;
  readonly cpuAllocatable: number;
  readonly memoryRequested: number;
  readonly memoryAllocatable: number;
  /** Pods no node runs, by group, with why. */
  readonly unschedulable: readonly { readonly id: string; readonly count: number; readonly reason: string }[];
}

export interface Plan {
  readonly json: PlanJson;
  readonly details: readonly ScenarioDetail[];
  readonly cluster: { readonly name: string; readonly configSource: string; readonly region: string };
  /** The steady state's pods (as configured): `pods` in all, of which `nodePods` on Karpenter's nodes, `fargatePods` on Fargate, the rest unschedulable or bound to named nodes. */
  readonly workload: {
    readonly source: string;
    readonly pods: number;
    readonly nodePods: number;
    readonly fargatePods: number;
    readonly unschedulablePods?: number;
    /** Pods with spec.nodeName: already on a node the plan does not launch. */
    readonly boundPods?: number;
    /** The pods of Jobs and CronJobs, which only jobs-burst plans. */
    readonly jobPods?: number;
  };
  readonly listPrices: { readonly source: string; readonly asOf: string };
}

/** The monthly figure everywhere: AWS bills 730 hours a month on average (8,760 / 12). */
export const HOURS_PER_MONTH = 730;

export const roundUsd = (value: number, digits = 6): number => Number(value.toFixed(digits));
