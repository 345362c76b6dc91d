import { karpenterInstanceTagKeys } from "../provisioners/karpenter-instance-tags";
import type { NodeClassConfig } from "../provisioners/node-class-schema";
import { type FieldCheck, MAX_TAGS_PER_RESOURCE } from "../shared/schema-helpers";

/** The fields the tag count reads. */
interface TaggedFields {
  readonly name: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly nodeClasses: readonly Pick<NodeClassConfig, "tags">[];
}

/**
 * AWS's 50 tags per resource, counting every tag a resource gets. The cluster's tags go on every AWS resource
 * of the cluster stack (provider default_tags) and on every EC2NodeClass, whose tags Karpenter puts on each
 * instance with six of its own; the node class's tags are added to both. The stack's own resources carry at
 * most three keys of their own (a private subnet: Name, the discovery tag and the internal-elb role), fewer
 * than Karpenter's six, so the instances are where the limit binds. Not counted: the existing subnets and the
 * cluster security group, which get one tag each (aws_ec2_tag) over tags this project does not know.
 */
export const TAG_LIMIT_CHECKS: readonly FieldCheck<TaggedFields>[] = [
  {
    reads: ["name", "tags", "nodeClasses.*.tags"],
    check: ({ name, tags, nodeClasses }, report) => {
      const karpenterKeys = karpenterInstanceTagKeys(name);
      const karpenterOwn = `Karpenter's ${karpenterKeys.length} (${karpenterKeys.join(", ")})`;
      const onInstance = (nodeClassTags: Readonly<Record<string, string>>) =>
        new Set([...Object.keys(tags), ...Object.keys(nodeClassTags), ...karpenterKeys]).size;
      const fromCluster = onInstance({});
      if (fromCluster > MAX_TAGS_PER_RESOURCE) {
        report(
          ["tags"],
          Object.keys(tags).length,
          `too many: they go on every EC2NodeClass, and with ${karpenterOwn} each instance Karpenter launches would carry ${fromCluster} tags; AWS allows ${MAX_TAGS_PER_RESOURCE} per resource`,
        );
        return;
      }
      nodeClasses.forEach((nodeClass, i) => {
        const count = onInstance(nodeClass.tags);
        if (count > MAX_TAGS_PER_RESOURCE) {
          report(
            ["nodeClasses", i, "tags"],
            Object.keys(nodeClass.tags).length,
            `too many: with the cluster's ${Object.keys(tags).length} tags and ${karpenterOwn}, each instance of this class would carry ${count} tags; AWS allows ${MAX_TAGS_PER_RESOURCE} per resource`,
          );
        }
      });
    },
  },
];
