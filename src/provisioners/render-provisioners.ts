import { type RenderedManifest, renderManifest } from "../kubernetes/manifest-yaml";
import { resourceNames } from "../shared/resource-names";
import type { EC2NodeClass, NodePool } from "./karpenter-api";
import type { NodeClassConfig } from "./node-class-schema";
import type { NodePoolConfig } from "./node-pool-schema";
import { type NodeClassContext, renderEc2NodeClass } from "./render-ec2-node-class";
import { renderNodePool } from "./render-node-pool";

export interface RenderedNodePool extends RenderedManifest<NodePool> {
  /** The EC2NodeClass it launches with: the stack applies that manifest first. */
  readonly nodeClassName: string;
}

export interface RenderedProvisioners {
  readonly nodeClasses: readonly RenderedManifest<EC2NodeClass>[];
  readonly nodePools: readonly RenderedNodePool[];
}

/** The node classes and pools of a cluster config. */
export interface ProvisionerConfig {
  readonly nodeClasses: readonly NodeClassConfig[];
  readonly nodePools: readonly NodePoolConfig[];
}

/**
 * Every EC2NodeClass and NodePool of a validated config, as objects and YAML. The config check guarantees
 * that each pool names an existing class; a missing one here is a bug, not a user error.
 */
export function renderProvisioners(config: ProvisionerConfig, context: NodeClassContext): RenderedProvisioners {
  const nodeClasses = config.nodeClasses.map((nodeClass) => renderManifest(renderEc2NodeClass(nodeClass, context)));
  const nodePools = config.nodePools.map((pool) => {
    const nodeClass = nodeClasses.find((c) => c.object.metadata.name === pool.nodeClass);
    if (nodeClass === undefined)
      throw new Error(`NodePool ${pool.name} names node class ${pool.nodeClass}, which does not exist; the config check should have caught this`);
    return { ...renderManifest(renderNodePool(pool, nodeClass.object)), nodeClassName: nodeClass.object.metadata.name };
  });
  return { nodeClasses, nodePools };
}

/** The context a cluster's own config gives: its name, its node roles, its tags. */
export function clusterNodeClassContext(config: { readonly name: string; readonly tags: Readonly<Record<string, string>> }): NodeClassContext {
  const names = resourceNames(config.name);
  return { clusterName: config.name, nodeRoleName: names.karpenterNodeRole, windowsNodeRoleName: names.karpenterWindowsNodeRole, tags: config.tags };
}
