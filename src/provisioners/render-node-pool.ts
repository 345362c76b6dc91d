import type { EC2NodeClass, NodePool, NodeSelectorRequirementWithMinValues, Taint } from "./karpenter-api";
import type { NodePoolConfig } from "./provisioner-config";
import { isWindowsNodeClass } from "./render-ec2-node-class";

/** Well-known label keys the pool's fields turn into requirements. */
export const REQUIREMENT_KEYS = {
  architecture: "kubernetes.io/arch",
  os: "kubernetes.io/os",
  capacityType: "karpenter.sh/capacity-type",
  instanceCategory: "karpenter.k8s.aws/instance-category",
  instanceFamily: "karpenter.k8s.aws/instance-family",
  instanceSize: "karpenter.k8s.aws/instance-size",
  instanceGeneration: "karpenter.k8s.aws/instance-generation",
  zone: "topology.kubernetes.io/zone",
} as const;

const isIn = (key: string, values: readonly string[] | undefined): NodeSelectorRequirementWithMinValues[] =>
  values === undefined ? [] : [{ key, operator: "In", values: [...values] }];

const renderTaint = (t: NodePoolConfig["taints"][number]): Taint =>
  t.value === undefined ? { key: t.key, effect: t.effect } : { key: t.key, value: t.value, effect: t.effect };

/**
 * The NodePool for a pool of the config. The node class is passed rendered, so that `nodeClassRef.name`
 * and the EC2NodeClass's `metadata.name` come from one place.
 */
export function renderNodePool(pool: NodePoolConfig, nodeClass: EC2NodeClass): NodePool {
  const requirements: NodeSelectorRequirementWithMinValues[] = [
    ...isIn(REQUIREMENT_KEYS.architecture, pool.architectures),
    ...isIn(REQUIREMENT_KEYS.os, [isWindowsNodeClass(nodeClass) ? "windows" : "linux"]),
    ...isIn(REQUIREMENT_KEYS.capacityType, pool.capacityTypes),
    ...isIn(REQUIREMENT_KEYS.instanceCategory, pool.instanceCategories),
    ...isIn(REQUIREMENT_KEYS.instanceFamily, pool.instanceFamilies),
    ...isIn(REQUIREMENT_KEYS.instanceSize, pool.instanceSizes),
    // "Gt 2" for minGeneration 3: Gte exists only since Karpenter 1.14, Gt reads the same everywhere.
    { key: REQUIREMENT_KEYS.instanceGeneration, operator: "Gt", values: [String(pool.minGeneration - 1)] },
    ...isIn(REQUIREMENT_KEYS.zone, pool.zones),
    ...pool.requirements.map((r) => ({
      key: r.key,
      operator: r.operator,
      ...(r.values === undefined ? {} : { values: [...r.values] }),
      ...(r.minValues === undefined ? {} : { minValues: r.minValues }),
    })),
  ];
  const labels = Object.keys(pool.labels).length > 0 ? { ...pool.labels } : undefined;
  return {
    apiVersion: "karpenter.sh/v1",
    kind: "NodePool",
    metadata: { name: pool.name },
    spec: {
      template: {
        ...(labels === undefined ? {} : { metadata: { labels } }),
        spec: {
          nodeClassRef: { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: nodeClass.metadata.name },
          requirements,
          ...(pool.taints.length > 0 ? { taints: pool.taints.map(renderTaint) } : {}),
          ...(pool.startupTaints.length > 0 ? { startupTaints: pool.startupTaints.map(renderTaint) } : {}),
          expireAfter: pool.expireAfter,
          ...(pool.terminationGracePeriod === undefined ? {} : { terminationGracePeriod: pool.terminationGracePeriod }),
        },
      },
      disruption: {
        consolidationPolicy: pool.consolidationPolicy,
        consolidateAfter: pool.consolidateAfter,
        budgets: pool.budgets.map((b) => ({
          nodes: b.nodes,
          ...(b.schedule === undefined ? {} : { schedule: b.schedule }),
          ...(b.duration === undefined ? {} : { duration: b.duration }),
          ...(b.reasons === undefined ? {} : { reasons: [...b.reasons] }),
        })),
      },
      limits: { ...pool.limits },
      ...(pool.weight === undefined ? {} : { weight: pool.weight }),
    },
  };
}
