import { isWindows } from "../provisioners/ami-selection";
import { exceedsGoDuration, goDurationNanos } from "../provisioners/go-duration";
import type { EC2NodeClass, NodePool } from "../provisioners/karpenter-api";
import { CRD_DISRUPTION_DEFAULTS } from "../provisioners/provisioner-defaults";
import { bytes, cpuMillis, GIB, parseQuantity } from "../shared/quantity";
import { type AmiFamily, aliasFamilyToAmiFamily } from "../shared/vocabulary/ami-families";
import type { NodeClassModel, NodePoolBudget, PoolDisruption, PoolModel } from "./model";

// Karpenter's NodePool and EC2NodeClass objects in the planner's terms: the ones synth renders from the config
// (cluster-model.ts), and those a running cluster's state holds (state/), read the same way.

/** Karpenter's default EBS volume size, when no mapping says otherwise (amifamily.DefaultEBS). */
export const DEFAULT_EBS_BYTES = 20 * GIB;

/** The node class's AMI family: spec.amiFamily, else its alias's, else AL2023. */
function amiFamilyOf(spec: EC2NodeClass["spec"]): AmiFamily {
  if (spec.amiFamily !== undefined) return spec.amiFamily;
  const alias = spec.amiSelectorTerms.find((t) => t.alias !== undefined)?.alias;
  return alias === undefined ? "AL2023" : aliasFamilyToAmiFamily(alias.split("@")[0].toLowerCase());
}

/**
 * The bytes of ephemeral storage a node of the class has, as Karpenter's AWS provider derives it: the size of the
 * block device marked rootVolume, else of the device the AMI family keeps kubelet's data on (Bottlerocket:
 * /dev/xvdb, Windows: /dev/sda1, the others /dev/xvda), else 20Gi.
 * @see aws/karpenter-provider-aws v1.14.1 pkg/providers/instancetype/types.go (ephemeralStorage)
 * @see aws/karpenter-provider-aws v1.14.1 pkg/providers/amifamily (EphemeralBlockDevice, DefaultEBS)
 */
export function ephemeralStorageOf(spec: EC2NodeClass["spec"]): number {
  const mappings = spec.blockDeviceMappings ?? [];
  const sized = (m: (typeof mappings)[number] | undefined) => (m?.ebs?.volumeSize === undefined ? undefined : bytes(m.ebs.volumeSize));
  const family = amiFamilyOf(spec);
  const device = family === "Bottlerocket" ? "/dev/xvdb" : family.startsWith("Windows") ? "/dev/sda1" : "/dev/xvda";
  return sized(mappings.find((m) => m.rootVolume === true)) ?? sized(mappings.find((m) => m.deviceName === device)) ?? DEFAULT_EBS_BYTES;
}

export function nodeClassModel(nodeClass: EC2NodeClass): NodeClassModel {
  const k = nodeClass.spec.kubelet ?? {};
  return {
    name: nodeClass.metadata.name,
    amiFamily: amiFamilyOf(nodeClass.spec),
    os: isWindows(nodeClass.spec) ? "windows" : "linux",
    kubelet: { maxPods: k.maxPods, podsPerCore: k.podsPerCore, systemReserved: k.systemReserved, kubeReserved: k.kubeReserved, evictionHard: k.evictionHard },
    ephemeralStorageBytes: ephemeralStorageOf(nodeClass.spec),
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

/** Seconds of a consolidateAfter ("30s", "1m"); 0 for Never or a value Karpenter could not read (the config refuses those). */
function secondsOf(duration: string): number {
  const nanos = duration === "Never" || exceedsGoDuration(duration) ? undefined : goDurationNanos(duration);
  return nanos === undefined ? 0 : Number(nanos) / 1e9;
}

/** A NodePool's spec.disruption, the CRD's defaults filled in where the object leaves them out. */
function disruptionOf(name: string, disruption: NodePool["spec"]["disruption"] | undefined): PoolDisruption {
  const budgets: NodePoolBudget[] = (disruption?.budgets ?? CRD_DISRUPTION_DEFAULTS.budgets).map((b) => ({
    nodes: b.nodes,
    reasons: b.reasons,
    schedule: b.schedule === undefined || b.duration === undefined ? undefined : { cron: b.schedule, minutes: minutesOf(b.duration) },
  }));
  const consolidateAfter = disruption?.consolidateAfter ?? CRD_DISRUPTION_DEFAULTS.consolidateAfter;
  return {
    pool: name,
    policy: disruption?.consolidationPolicy ?? CRD_DISRUPTION_DEFAULTS.consolidationPolicy,
    consolidateAfterNever: consolidateAfter === "Never",
    consolidateAfterSeconds: secondsOf(consolidateAfter),
    budgets,
  };
}

/** A NodePool's spec.disruption, the CRD's defaults filled in. */
export const poolDisruptionOf = (pool: NodePool): PoolDisruption => disruptionOf(pool.metadata.name, pool.spec.disruption);

/** What a NodePool without a disruption block gets from the CRD. */
export const defaultPoolDisruption = (name: string): PoolDisruption => disruptionOf(name, undefined);

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
