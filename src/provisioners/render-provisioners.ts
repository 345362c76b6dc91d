import type { EC2NodeClass, NodePool } from "./karpenter-api";
import { toManifestYaml } from "./manifest-yaml";
import type { NodeClassConfig, NodePoolConfig } from "./provisioner-config";
import { type NodeClassContext, renderEc2NodeClass } from "./render-ec2-node-class";
import { renderNodePool } from "./render-node-pool";

export interface RenderedNodeClass {
  readonly name: string;
  readonly object: EC2NodeClass;
  readonly yaml: string;
}

export interface RenderedNodePool {
  readonly name: string;
  /** The EC2NodeClass it launches with: the stack applies that manifest first. */
  readonly nodeClassName: string;
  readonly object: NodePool;
  readonly yaml: string;
}

export interface RenderedProvisioners {
  readonly nodeClasses: readonly RenderedNodeClass[];
  readonly nodePools: readonly RenderedNodePool[];
}

/**
 * Every EC2NodeClass and NodePool of a validated config, as objects and YAML. The config check guarantees
 * that each pool names an existing class; a missing one here is a bug, not a user error.
 */
export function renderProvisioners(
  config: { readonly nodeClasses: readonly NodeClassConfig[]; readonly nodePools: readonly NodePoolConfig[] },
  context: NodeClassContext,
): RenderedProvisioners {
  const nodeClasses = config.nodeClasses.map((nodeClass) => {
    const object = renderEc2NodeClass(nodeClass, context);
    return { name: object.metadata.name, object, yaml: toManifestYaml(object) };
  });
  const nodePools = config.nodePools.map((pool) => {
    const nodeClass = nodeClasses.find((c) => c.name === pool.nodeClass);
    if (nodeClass === undefined)
      throw new Error(`NodePool ${pool.name} names node class ${pool.nodeClass}, which does not exist; the config check should have caught this`);
    const object = renderNodePool(pool, nodeClass.object);
    return { name: object.metadata.name, nodeClassName: nodeClass.name, object, yaml: toManifestYaml(object) };
  });
  return { nodeClasses, nodePools };
}
