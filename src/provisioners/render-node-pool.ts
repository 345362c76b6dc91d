import { isWindows } from "./ami-selection";
import type { EC2NodeClass, NodePool, Taint } from "./karpenter-api";
import type { NodePoolConfig } from "./node-pool-schema";
import { selectionRequirements } from "./pool-requirements";

const renderTaint = (t: NodePoolConfig["taints"][number]): Taint =>
  t.value === undefined ? { key: t.key, effect: t.effect } : { key: t.key, value: t.value, effect: t.effect };

/**
 * The NodePool for a pool of the config. The node class is passed rendered, so that `nodeClassRef.name`
 * and the EC2NodeClass's `metadata.name` come from one place.
 */
export function renderNodePool(pool: NodePoolConfig, nodeClass: EC2NodeClass): NodePool {
  const requirements = [
    ...selectionRequirements(pool, isWindows(nodeClass.spec) ? "windows" : "linux"),
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
