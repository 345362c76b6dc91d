import { isWindows } from "../provisioners/ami-selection";
import { exceedsGoDuration, goDurationNanos } from "../provisioners/go-duration";
import type { EC2NodeClass, NodePool } from "../provisioners/karpenter-api";
import { bytes, cpuMillis, parseQuantity } from "../shared/quantity";
import { aliasFamilyToAmiFamily } from "../shared/vocabulary/ami-families";
import type { NodeClassModel, NodePoolBudget, PoolDisruption, PoolModel } from "./model";

// Karpenter's NodePool and EC2NodeClass objects in the planner's terms: the ones synth renders from the config
// (cluster-model.ts), and those a running cluster's state holds (state/), read the same way.

function amiFamilyOf(nodeClass: EC2NodeClass): string {
  if (nodeClass.spec.amiFamily !== undefined) return nodeClass.spec.amiFamily;
  const alias = nodeClass.spec.amiSelectorTerms.find((t) => t.alias !== undefined)?.alias;
  return alias === undefined ? "AL2023" : aliasFamilyToAmiFamily(alias.split("@")[0].toLowerCase());
}

export function nodeClassModel(nodeClass: EC2NodeClass): NodeClassModel {
  const k = nodeClass.spec.kubelet ?? {};
  return {
    name: nodeClass.metadata.name,
    amiFamily: amiFamilyOf(nodeClass),
    os: isWindows(nodeClass.spec) ? "windows" : "linux",
    kubelet: { maxPods: k.maxPods, podsPerCore: k.podsPerCore, systemReserved: k.systemReserved, kubeReserved: k.kubeReserved, evictionHard: k.evictionHard },
  };
}

/** cpu in millicores, memory in bytes, other resources as counts. */
function limitsOf(pool: NodePool): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const [key, value] of Object.entries(pool.spec.limits ?? {})) {
    const parsed = key === "cpu" ? cpuMillis(value) : key === "memory" ? bytes(value) : parseQuantity(value);
    if (parsed !== undefined) limits[key] = parsed;
  }
  return limits;
}

/** Minutes of a budget's duration ("8h", "1h30m"). */
function minutesOf(duration: string): number {
  const nanos = goDurationNanos(duration);
  return nanos === undefined || exceedsGoDuration(duration) ? 0 : Number(nanos / 60_000_000_000n);
}

/** A NodePool's spec.disruption, the CRD's defaults filled in. */
export function poolDisruptionOf(pool: NodePool): PoolDisruption {
  const disruption = pool.spec.disruption;
  const budgets: NodePoolBudget[] = (disruption.budgets ?? [{ nodes: "10%" }]).map((b) => ({
    nodes: b.nodes,
    reasons: b.reasons,
    schedule: b.schedule === undefined || b.duration === undefined ? undefined : { cron: b.schedule, minutes: minutesOf(b.duration) },
  }));
  return {
    pool: pool.metadata.name,
    policy: disruption.consolidationPolicy ?? "WhenEmptyOrUnderutilized",
    consolidateAfterNever: disruption.consolidateAfter === "Never",
    budgets,
  };
}

/** A NodePool of a node class, as the planner reads it. */
export function poolModelOf(object: NodePool, nodeClass: NodeClassModel): PoolModel {
  const template = object.spec.template;
  return {
    name: object.metadata.name,
    weight: object.spec.weight ?? 0,
    requirements: template.spec.requirements.map((r) => ({ key: r.key, operator: r.operator, values: r.values, minValues: r.minValues })),
    labels: { ...(template.metadata?.labels ?? {}) },
    taints: (template.spec.taints ?? []).map((t) => ({ key: t.key, value: t.value, effect: t.effect })),
    limits: limitsOf(object),
    nodeClass,
    disruption: poolDisruptionOf(object),
  };
}
