// Objects of a running cluster's state, as `kubectl get -o json` prints them, for the savings tests: a NodePool of
// on-demand amd64 nodes limited to the instance types a test names, its EC2NodeClass, and a List of objects.

/** A NodePool of amd64 on-demand nodes of `instanceTypes`, consolidating when empty or underutilized, budget 100%. */
export function nodePool(name: string, instanceTypes: readonly string[]) {
  return {
    apiVersion: "karpenter.sh/v1",
    kind: "NodePool",
    metadata: { name },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "default" },
          requirements: [
            { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
            { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
            { key: "node.kubernetes.io/instance-type", operator: "In", values: instanceTypes },
          ],
        },
      },
      disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m", budgets: [{ nodes: "100%" }] },
    },
  };
}

export const NODE_CLASS = {
  apiVersion: "karpenter.k8s.aws/v1",
  kind: "EC2NodeClass",
  metadata: { name: "default" },
  spec: { amiSelectorTerms: [{ alias: "al2023@latest" }] },
};

export const list = (...items: unknown[]) => ({ apiVersion: "v1", kind: "List", items });
