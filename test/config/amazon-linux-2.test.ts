import { configWarnings } from "../../src/config/config-warnings";
import { parseClusterConfig } from "../../src/config/load-config";
import { clusterProblems } from "../helpers/problems";

// EKS released its last Amazon Linux 2 AMIs for Kubernetes 1.32: an al2 alias finds no AMI for a later
// version (the node class never becomes Ready), and the ones it finds for 1.32 and earlier get no updates.

const NO_AMI =
  "EKS publishes no Amazon Linux 2 AMI for Kubernetes 1.35 (1.32 was the last), so the alias would find none and the node class never become Ready; use al2023@latest or bottlerocket@latest";
const classes = {
  nodeClasses: [
    { name: "default", amiAlias: "al2@latest" },
    { name: "pinned", amiSelectorTerms: [{ alias: "al2@v20251108" }], amiFamily: "AL2" },
    { name: "own", amiSelectorTerms: [{ tags: { image: "our-al2" } }], amiFamily: "AL2" },
  ],
  nodePools: [{ name: "a" }, { name: "b", nodeClass: "pinned" }, { name: "c", nodeClass: "own" }],
};

describe("Amazon Linux 2 node classes", () => {
  it("are refused for Kubernetes 1.33 and later, where EKS has no AL2 AMI; AMIs of your own are yours", () => {
    expect(clusterProblems({ kubernetesVersion: "1.35", ...classes })).toEqual([
      `nodeClasses[0].amiAlias: got "al2@latest"; ${NO_AMI}`,
      `nodeClasses[1].amiSelectorTerms[0].alias: got "al2@v20251108"; ${NO_AMI}`,
    ]);
  });

  it("synthesize for 1.32, with a warning on stderr that the AMIs get no more updates", () => {
    const config = parseClusterConfig({ name: "demo", kubernetesVersion: "1.32", cluster: { publicAccessCidrs: ["203.0.113.0/24"] }, ...classes }, "t.yaml");
    const ended = "selects Amazon Linux 2 AMIs, whose EKS support ended on 2025-11-26: nodes get no further security updates; move to al2023@latest";
    expect(configWarnings(config).filter((w) => w.startsWith("nodeClasses"))).toEqual([
      `nodeClasses[0].amiAlias: al2@latest ${ended}`,
      `nodeClasses[1].amiSelectorTerms[0].alias: al2@v20251108 ${ended}`,
    ]);
  });
});
