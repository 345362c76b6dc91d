import type { ITerraformDependable } from "cdktf";
import { Construct } from "constructs";
import type { ClusterConfig } from "../config/schema";
import { renderProvisioners } from "../provisioners/render-provisioners";
import { kubernetesManifest } from "./kubernetes-manifest";

export interface ProvisionerManifestsProps {
  readonly config: ClusterConfig;
  readonly nodeRoleName: string;
  /** The Karpenter release: the CRDs and a running controller must exist first. */
  readonly controller: ITerraformDependable;
}

/**
 * Karpenter's EC2NodeClasses and NodePools, applied after the controller's release. Destroy runs the other
 * way: each NodePool is deleted first and waited on while Karpenter drains and terminates its nodes, then its
 * EC2NodeClass, and only then the controller, its IAM role and its queue. Deleting the controller first
 * would leave EC2 instances running with nobody to terminate them.
 */
export class ProvisionerManifests extends Construct {
  constructor(scope: Construct, id: string, props: ProvisionerManifestsProps) {
    super(scope, id);
    const { config } = props;
    const rendered = renderProvisioners(config, { clusterName: config.name, nodeRoleName: props.nodeRoleName, tags: config.tags });
    // Draining a node honours pod disruption budgets and termination grace periods: allow for it.
    const deleteTimeout = "30m";
    const classManifests = new Map(
      rendered.nodeClasses.map((nodeClass) => [nodeClass.name, kubernetesManifest(this, nodeClass.object, { dependsOn: [props.controller], deleteTimeout })]),
    );
    for (const pool of rendered.nodePools) {
      kubernetesManifest(this, pool.object, { dependsOn: [props.controller, classManifests.get(pool.nodeClassName)!], deleteTimeout });
    }
  }
}
