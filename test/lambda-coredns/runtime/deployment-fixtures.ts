import type { DeploymentState } from "../../../src/lambda-coredns/runtime/coredns-deployment";

/** CoreDNS after a finished rollout: no compute-type annotation, every replica updated and available. */
export const ROLLED_OUT: DeploymentState = {
  computeType: undefined,
  generation: 2,
  observedGeneration: 2,
  replicas: 2,
  updatedReplicas: 2,
  availableReplicas: 2,
  totalReplicas: 2,
  matchLabels: { "k8s-app": "kube-dns" },
};
