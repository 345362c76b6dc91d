import type { TerraformStack } from "cdktf";
import type { RenderedProvisioners } from "../provisioners/render-provisioners";
import { addOutputs } from "./stack-outputs";

export interface KarpenterOutputsProps {
  readonly karpenterVersion: string;
  readonly namespace: string;
  readonly provisioners: RenderedProvisioners;
}

/** The Karpenter stack's outputs: the release it installs and the Karpenter objects it applies. */
export function addKarpenterOutputs(stack: TerraformStack, { karpenterVersion, namespace, provisioners }: KarpenterOutputsProps): void {
  addOutputs(stack, {
    karpenter_version: { value: karpenterVersion, description: "The Karpenter release (both charts) this stack installs." },
    karpenter_namespace: { value: namespace, description: "The namespace of the Karpenter controller." },
    node_class_names: { value: provisioners.nodeClasses.map((c) => c.object.metadata.name), description: "The EC2NodeClasses this stack applies." },
    node_pool_names: { value: provisioners.nodePools.map((p) => p.object.metadata.name), description: "The NodePools this stack applies." },
  });
}
