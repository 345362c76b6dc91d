import type { ITerraformDependable } from "cdktf";
import { Construct } from "constructs";
import { kubernetesManifest } from "../../kubernetes/kubernetes-manifest";
import type { RenderedProvisioners } from "../../provisioners/render-provisioners";

export interface ProvisionerManifestsProps {
  /** The EC2NodeClasses and NodePools, rendered once. */
  readonly provisioners: RenderedProvisioners;
  /** The Karpenter release: the CRDs and a running controller must exist first. */
  readonly controller: ITerraformDependable;
}

/** Draining a node honours pod disruption budgets and termination grace periods: allow for it. */
const DELETE_TIMEOUT = "30m";

/**
 * Karpenter's EC2NodeClasses and NodePools, applied after the controller's release. Destroy runs the other
 * way: each NodePool is deleted first and waited on while Karpenter drains and terminates its nodes, then its
 * EC2NodeClass, and only then the controller, its IAM role and its queue. Deleting the controller first
 * would leave EC2 instances running with nobody to terminate them.
 */
export class ProvisionerManifests extends Construct {
  constructor(scope: Construct, id: string, props: ProvisionerManifestsProps) {
    super(scope, id);
    const { provisioners, controller } = props;
    const classManifests = new Map(
      provisioners.nodeClasses.map((nodeClass) => [
        nodeClass.object.metadata.name,
        kubernetesManifest(this, nodeClass, { dependsOn: [controller], deleteTimeout: DELETE_TIMEOUT }),
      ]),
    );
    for (const pool of provisioners.nodePools) {
      const nodeClass = classManifests.get(pool.nodeClassName);
      if (nodeClass === undefined) throw new Error(`NodePool ${pool.object.metadata.name} has no rendered node class ${pool.nodeClassName}`);
      kubernetesManifest(this, pool, { dependsOn: [controller, nodeClass], deleteTimeout: DELETE_TIMEOUT });
    }
  }
}
