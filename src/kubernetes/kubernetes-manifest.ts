import type { ITerraformDependable } from "cdktf";
import type { Construct } from "constructs";
import { Manifest } from "../../.gen/providers/kubectl/manifest";
import type { RenderedManifest } from "./manifest-yaml";

export interface KubernetesManifestOptions {
  readonly dependsOn: readonly ITerraformDependable[];
  /**
   * How long a delete may take. Karpenter's objects carry finalizers that wait for the controller to drain
   * and terminate nodes.
   * @default "10m"
   */
  readonly deleteTimeout?: string;
}

/**
 * A kubectl_manifest for one object, server-side applied, id `<kind>-<name>`. kubectl rather than
 * kubernetes_manifest: the latter asks the API for the CRD's schema at plan, before the CRDs exist.
 * `wait` makes destroy block until the object is gone, finalizers included.
 */
export function kubernetesManifest(scope: Construct, manifest: RenderedManifest, options: KubernetesManifestOptions): Manifest {
  const { kind, metadata } = manifest.object;
  return new Manifest(scope, `${kind.toLowerCase()}-${metadata.name}`, {
    yamlBody: manifest.yaml,
    serverSideApply: true,
    // Take over fields last written by kubectl or an older field manager instead of failing.
    forceConflicts: true,
    wait: true,
    // Explicit (wait implies it): dependents go first, so a NodePool is gone only after its NodeClaims,
    // whose finalizers drain and terminate the nodes.
    deleteCascade: "Foreground",
    timeouts: { delete: options.deleteTimeout ?? "10m" },
    dependsOn: [...options.dependsOn],
  });
}
