import { NamespaceV1 } from "@cdktf/provider-kubernetes/lib/namespace-v1";
import { Construct } from "constructs";

export interface KarpenterNamespaceProps {
  readonly name: string;
  /** The cluster's Kubernetes minor version: the Pod Security standard is evaluated as of that release. */
  readonly kubernetesVersion: string;
}

/**
 * The controller's namespace, owned by this stack and created before the Helm releases, with the Pod
 * Security admission labels Helm's `createNamespace` cannot set. `restricted`: the chart runs the controller
 * as non-root with a read-only root filesystem, no privilege escalation, all capabilities dropped and the
 * RuntimeDefault seccomp profile, and nothing else belongs in this namespace.
 * @see https://kubernetes.io/docs/concepts/security/pod-security-admission/
 */
export class KarpenterNamespace extends Construct {
  readonly namespace: NamespaceV1;

  constructor(scope: Construct, id: string, props: KarpenterNamespaceProps) {
    super(scope, id);
    const version = `v${props.kubernetesVersion}`;
    this.namespace = new NamespaceV1(this, "namespace", {
      metadata: {
        name: props.name,
        labels: {
          "pod-security.kubernetes.io/enforce": "restricted",
          "pod-security.kubernetes.io/enforce-version": version,
          "pod-security.kubernetes.io/warn": "restricted",
          "pod-security.kubernetes.io/warn-version": version,
          "pod-security.kubernetes.io/audit": "restricted",
          "pod-security.kubernetes.io/audit-version": version,
        },
      },
      // Deleting the namespace waits for what is left in it; the releases are gone by then.
      timeouts: { delete: "10m" },
    });
  }
}
