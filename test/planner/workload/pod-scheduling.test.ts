import * as path from "node:path";
import { readWorkload } from "../../../src/planner/workload/read-workload";
import { FIXTURES, nodesOf, planOf, scenario, workloadFile } from "../helpers";

// Karpenter reads the deprecated node label keys as the current ones in every pod requirement (v1.14.1
// pkg/apis/v1/labels.go NormalizedLabels, applied by pkg/scheduling/requirement.go NewRequirement): node
// selectors, node affinity, and the planner the topology keys of spreads and pod (anti-)affinity too.

const DEFAULT = { name: "demo" };

/** One Deployment whose pod spec carries `placement` (YAML lines, 6 spaces deep). */
const web = (replicas: number, placement: string) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: ${replicas}
  template:
    metadata: { labels: { app: web } }
    spec:
${placement}      containers: [{ name: c, resources: { requests: { cpu: 500m, memory: 512Mi } } }]
`;

describe("deprecated node label keys", () => {
  it("reads each of the five as its current key, in node selectors, node affinity and topology keys", () => {
    const { pod } = readWorkload(
      workloadFile(
        web(
          1,
          `      nodeSelector: { beta.kubernetes.io/os: linux, beta.kubernetes.io/arch: arm64 }
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions: [{ key: beta.kubernetes.io/instance-type, operator: In, values: [c6g.large] }]
          preferredDuringSchedulingIgnoredDuringExecution:
            - weight: 1
              preference: { matchExpressions: [{ key: failure-domain.beta.kubernetes.io/region, operator: In, values: [us-east-1] }] }
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - { topologyKey: failure-domain.beta.kubernetes.io/zone, labelSelector: { matchLabels: { app: web } } }
      topologySpreadConstraints:
        - { maxSkew: 1, topologyKey: failure-domain.beta.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: { matchLabels: { app: web } } }
`,
        ),
      ),
    ).groups[0];
    expect(pod.nodeSelector).toEqual([
      { key: "kubernetes.io/os", operator: "In", values: ["linux"] },
      { key: "kubernetes.io/arch", operator: "In", values: ["arm64"] },
    ]);
    expect(pod.affinityTerms).toEqual([[{ key: "node.kubernetes.io/instance-type", operator: "In", values: ["c6g.large"] }]]);
    expect(pod.preferredAffinity[0].requirements).toEqual([{ key: "topology.kubernetes.io/region", operator: "In", values: ["us-east-1"] }]);
    expect(pod.podAntiAffinity[0].topologyKey).toBe("topology.kubernetes.io/zone");
    expect(pod.topologySpread[0].topologyKey).toBe("topology.kubernetes.io/zone");
  });

  it("plans a pod that selects them as one that selects the current keys", () => {
    const deprecated = `      nodeSelector: { beta.kubernetes.io/arch: amd64, beta.kubernetes.io/instance-type: m5.large, failure-domain.beta.kubernetes.io/zone: us-east-1b }\n`;
    const current = `      nodeSelector: { kubernetes.io/arch: amd64, node.kubernetes.io/instance-type: m5.large, topology.kubernetes.io/zone: us-east-1b }\n`;
    const config = { name: "demo", network: { availabilityZones: ["us-east-1a", "us-east-1b", "us-east-1c"] } };
    const [old, now] = [deprecated, current].map((placement) => scenario(planOf(config, web(2, placement)), "as-configured"));
    // 2 pods of 500m / 512Mi on the one type allowed: an m5.large (1930m allocatable) holds both, in zone b.
    expect(old.nodes).toEqual(now.nodes);
    expect(old.nodes.map((n) => [n.instanceType, n.pods, n.zone])).toEqual([["m5.large", 2, "us-east-1b"]]);
  });

  it("spreads over zones on the deprecated zone key as on the current one: 3 replicas, 3 zones", () => {
    const spread = `      topologySpreadConstraints:
        - { maxSkew: 1, topologyKey: failure-domain.beta.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: { matchLabels: { app: web } } }
`;
    const config = { name: "demo", network: { availabilityZones: ["us-east-1a", "us-east-1b", "us-east-1c"] } };
    const asConfigured = scenario(planOf(config, web(3, spread)), "as-configured");
    expect(asConfigured.nodes.map((n) => n.zone)).toEqual(["us-east-1a", "us-east-1b", "us-east-1c"]);
  });

  it("the Sock Shop demo, whose every pod selects beta.kubernetes.io/os: linux, plans its 14 pods on one node", () => {
    const plan = planOf(DEFAULT, path.join(FIXTURES, "real-workloads", "sock-shop-complete-demo.yaml"));
    const asConfigured = scenario(plan, "as-configured");
    // 8 pods request 799m / 1700Mi in all (6 databases request nothing): with the 150m of DaemonSets, one c6g.large.
    expect(nodesOf(asConfigured)).toEqual(["c6g.large spot 14 pods"]);
    expect(asConfigured.unschedulable).toEqual([]);
  });
});
