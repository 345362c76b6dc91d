import { clusterProblems } from "../helpers/problems";
import { config, readStack, synthApp } from "../helpers/synth-app";

/** n distinct tags: team-1: x, team-2: x, ... */
const tags = (n: number, prefix = "team") => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}-${i + 1}`, "x"]));

const KARPENTER_OWN =
  "Karpenter's 6 (kubernetes.io/cluster/demo, karpenter.sh/nodepool, eks:eks-cluster-name, karpenter.k8s.aws/ec2nodeclass, Name, karpenter.sh/nodeclaim)";

describe("50 tags per resource, counting the tags this project and Karpenter add", () => {
  it("takes 44 cluster tags: with Karpenter's 6, an instance carries 50", () => {
    expect(clusterProblems({ tags: tags(44) })).toEqual([]);
  });

  it("refuses a 45th", () => {
    expect(clusterProblems({ tags: tags(45) })).toEqual([
      `tags: got 45; too many: they go on every EC2NodeClass, and with ${KARPENTER_OWN} each instance Karpenter launches would carry 51 tags; AWS allows 50 per resource`,
    ]);
  });

  it("counts a Name of the user's once: Karpenter keeps it instead of its own", () => {
    expect(clusterProblems({ tags: { ...tags(44), Name: "nodes" } })).toEqual([]);
  });

  it("counts a node class's tags with the cluster's, keys they share once", () => {
    const nodeClass = (classTags: Record<string, string>) => ({ tags: tags(40), nodeClasses: [{ name: "default" }, { name: "gpu", tags: classTags }] });
    expect(clusterProblems(nodeClass({ ...tags(6), ...tags(4, "cost") }))).toEqual([]);
    expect(clusterProblems(nodeClass(tags(5, "cost")))).toEqual([
      `nodeClasses[1].tags: got 5; too many: with the cluster's 40 tags and ${KARPENTER_OWN}, each instance of this class would carry 51 tags; AWS allows 50 per resource`,
    ]);
  });

  it("keeps every resource of the cluster stack within 50 at the most cluster tags allowed: the instances are where the limit binds", () => {
    const json = readStack(synthApp(config({ tags: tags(44) })), "demo-cluster");
    const [provider] = json.provider?.aws ?? [];
    const defaultTags = Object.keys((provider as { default_tags: { tags: Record<string, string> }[] }).default_tags[0].tags);
    const counts = Object.values(json.resource ?? {}).flatMap((byName) =>
      Object.values(byName).map((body) => new Set([...defaultTags, ...Object.keys((body.tags as Record<string, string> | undefined) ?? {})]).size),
    );
    expect(defaultTags).toHaveLength(44);
    // The private subnets carry the most keys of their own: Name, the discovery tag and the internal-elb role.
    expect(Math.max(...counts)).toBe(47);
  });
});

describe("tag keys and values", () => {
  it("holds node class tags to AWS's rules, as the cluster's are", () => {
    expect(clusterProblems({ nodeClasses: [{ name: "default", tags: { "aws:owner": "me", ["k".repeat(129)]: "v", team: "v".repeat(257) } }] })).toEqual([
      'nodeClasses[0].tags.aws:owner: got "aws:owner"; tag keys starting with "aws:" are reserved by AWS',
      `nodeClasses[0].tags.${"k".repeat(129)}: got "${"k".repeat(56)}...; tag keys must be at most 128 characters`,
      `nodeClasses[0].tags.team: got "${"v".repeat(56)}...; tag values must be at most 256 characters`,
    ]);
  });

  it("allows the longest key and value", () => {
    expect(
      clusterProblems({ tags: { ["k".repeat(128)]: "v".repeat(256) }, nodeClasses: [{ name: "default", tags: { ["c".repeat(128)]: "v".repeat(256) } }] }),
    ).toEqual([]);
  });
});
