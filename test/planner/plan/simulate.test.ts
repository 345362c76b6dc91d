import * as fs from "node:fs";
import * as path from "node:path";
import { deployment, FIXTURES, nodesOf, planOf, scenario } from "../helpers";

// What Karpenter 1.14.1 launches for the constraints production workloads carry, worked out by hand from its
// scheduler (kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling/: scheduler.go, nodeclaim.go,
// topologygroup.go, preferences.go) and the catalogue's figures, never from the planner's output. Prices are
// us-east-1 on-demand (spot offline is priced at that rate): c6g.medium $0.034, c6g.large $0.068,
// c6g.xlarge $0.136, c6a.large $0.0765. Every node also runs aws-node and kube-proxy: 150m and 2 pods.
// c6g.medium holds 940m / 1392 MiB, c6g.large 1930m / 3055 MiB, c6g.xlarge 3920m / 6517 MiB.

/** A Graviton pool of one family, so that each plan has few types to reason about. */
const c6g = (fields: Record<string, unknown> = {}) => ({ name: "demo", nodePools: [{ name: "default", instanceFamilies: ["c6g"], ...fields }] });

/** The pods of a Deployment named `app`, spec lines indented for deployment()'s template. */
const antiAffinity = (key: string, app: string) => `      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - topologyKey: ${key}
              labelSelector: { matchLabels: { app: ${app} } }
`;

const spread = (key: string, app: string, when = "DoNotSchedule") => `      topologySpreadConstraints:
        - { maxSkew: 1, topologyKey: ${key}, whenUnsatisfiable: ${when}, labelSelector: { matchLabels: { app: ${app} } } }
`;

const podsByZone = (nodes: readonly { zone?: string; pods: number }[]) => {
  const byZone: Record<string, number> = {};
  for (const n of nodes) byZone[n.zone ?? "any"] = (byZone[n.zone ?? "any"] ?? 0) + n.pods;
  return byZone;
};

describe("plans by hand: what production constraints make Karpenter launch", () => {
  it("hostname anti-affinity: one replica per node (6 replicas, 6 nodes; 20, 20)", () => {
    // A NodeClaim holds at most one pod its own anti-affinity selects (nextDomainAntiAffinity: only a hostname
    // with no matching pod). Each holds 250m + 150m and 512 MiB: c6g.medium.
    const six = scenario(planOf(c6g(), deployment("web", 6, "250m", "512Mi", antiAffinity("kubernetes.io/hostname", "web"))), "as-configured");
    expect(nodesOf(six)).toEqual(Array(6).fill("c6g.medium spot 1 pods"));
    expect(six.hourlyUsd).toBe(0.204); // 6 * 0.034
    const twenty = scenario(planOf(c6g(), deployment("web", 20, "250m", "512Mi", antiAffinity("kubernetes.io/hostname", "web"))), "as-configured");
    expect(twenty.nodeCount).toBe(20);
    expect(twenty.unschedulable).toEqual([]);
  });

  it("zone spread, maxSkew 1: one NodeClaim per zone (12 pods: 4 in each of 3 zones)", () => {
    // Pod 1 opens a NodeClaim in zone a (all zones at 0: the first listed). Pod 2 cannot join it (a would be
    // 2, c 0: skew 2) and opens one in b, pod 3 in c. Then each NodeClaim takes pods in turn, emptiest
    // first. 4 pods: 1000m + 150m, 2048 MiB: c6g.large.
    const plan = planOf(c6g(), deployment("web", 12, "250m", "512Mi", spread("topology.kubernetes.io/zone", "web")));
    const asConfigured = scenario(plan, "as-configured");
    expect(nodesOf(asConfigured)).toEqual(Array(3).fill("c6g.large spot 4 pods"));
    expect(podsByZone(asConfigured.nodes)).toEqual({ "us-east-1a": 4, "us-east-1b": 4, "us-east-1c": 4 });
    expect(asConfigured.hourlyUsd).toBe(0.204); // 3 * 0.068
  });

  it("zone anti-affinity: one replica per zone, launched one at a time, the fourth pending, and why", () => {
    // A NodeClaim that may land in any free zone blocks them all (topology.go Record: anti-affinity records
    // every domain the NodeClaim could still take), so each provisioning loop launches one: the first may
    // land anywhere, the second in one of the two zones left, the third in the last. Zones a NodeClaim did
    // not pin show as "any" (EC2 picks).
    const plan = planOf(c6g(), deployment("db", 4, "250m", "512Mi", antiAffinity("topology.kubernetes.io/zone", "db")));
    const asConfigured = scenario(plan, "as-configured");
    expect(nodesOf(asConfigured)).toEqual(Array(3).fill("c6g.medium spot 1 pods"));
    expect(asConfigured.unschedulable).toEqual([
      {
        pod: "default/db",
        reason:
          "NodePool default: pod anti-affinity on topology.kubernetes.io/zone against app=db: every zone the node could use (us-east-1a, us-east-1b, us-east-1c) already has a matching pod",
      },
    ]);
  });

  it("capacity-type spread: one pod on spot, the next on on-demand", () => {
    // The domains are the pool's capacity types, spot then on-demand; the second pod would make the skew 2 on spot.
    const plan = planOf(c6g(), deployment("web", 2, "250m", "512Mi", spread("karpenter.sh/capacity-type", "web")));
    expect(nodesOf(scenario(plan, "as-configured"))).toEqual(["c6g.medium spot 1 pods", "c6g.medium on-demand 1 pods"]);
  });

  it("emptiest first: mixed sizes spread over the open NodeClaims, where first fit would pack them (2 xlarge, not xlarge + large)", () => {
    // Sizes large and xlarge. big (1500m) x 3, then small (250m) x 3, all 100Mi:
    //   big-1 opens NC1 {large, xlarge}; big-2 joins it (3000m: only xlarge, 3770m free); big-3 opens NC2.
    //   small-1 goes to the emptiest, NC2 (1750m: large still holds it); small-2 to NC1 or NC2 (2 pods each)
    //   and small-3 to the other: each NodeClaim ends with 3 pods and more than a large holds (NC1 3250m,
    //   NC2 2000m + 150m > 1930m): two c6g.xlarge, $0.272. First fit would have put the three small pods
    //   on NC1 (3750m + 150m <= 3920m) and launched NC2 as a large: $0.204, 25% less than Karpenter.
    const workload = deployment("big", 3, "1500m", "100Mi") + deployment("small", 3, "250m", "100Mi");
    const plan = planOf(c6g({ instanceSizes: ["large", "xlarge"] }), workload);
    expect(nodesOf(scenario(plan, "as-configured"))).toEqual(["c6g.xlarge spot 3 pods", "c6g.xlarge spot 3 pods"]);
    expect(scenario(plan, "as-configured").hourlyUsd).toBe(0.272);
  });

  it("DaemonSet overhead per instance type: an arm64-only DaemonSet costs nothing on amd64 types", () => {
    // On c6g (arm64) the pod's 1000m comes with 150m + 1500m of DaemonSets: 2650m, a c6g.xlarge ($0.136).
    // On c6a (amd64) only 150m: 1150m, a c6a.large ($0.0765), the cheaper.
    const agent = `apiVersion: apps/v1
kind: DaemonSet
metadata: { name: arm-agent }
spec:
  template:
    spec:
      nodeSelector: { kubernetes.io/arch: arm64 }
      containers: [{ name: a, resources: { requests: { cpu: 1500m } } }]
---
`;
    const plan = planOf({ name: "demo", nodePools: [{ name: "default", instanceFamilies: ["c6g", "c6a"] }] }, agent + deployment("app", 1, "1", "100Mi"));
    expect(nodesOf(scenario(plan, "as-configured"))).toEqual(["c6a.large spot 1 pods"]);
    expect(plan.json.daemonSets).toEqual([{ id: "default/arm-agent", cpuMillis: 1500, memoryBytes: 0, nodes: 0 }]);
  });

  it("pool limits count capacity: memory after the VM overhead, not EC2's nominal figure", () => {
    // c6g.xlarge: 8192 MiB, less 64 MiB on Graviton = 8128, less ceil(8128 * 7.5%) = 610: 7518 MiB of
    // capacity, within a 7680 MiB limit (its nominal 8192 MiB is not). The NodeClaim reserves it: 162 MiB is
    // left, which no type fits, so the second pod waits, in this batch and the next.
    const plan = planOf(c6g({ limits: { cpu: "100", memory: "7680Mi" } }), deployment("app", 2, "3", "100Mi"));
    const asConfigured = scenario(plan, "as-configured");
    expect(nodesOf(asConfigured)).toEqual(["c6g.xlarge spot 1 pods"]);
    expect(asConfigured.unschedulable).toEqual([{ pod: "default/app", reason: "NodePool default: its limits are reached (cpu 100, memory 7.5 GiB)" }]);
  });

  it("a new NodeClaim reserves its largest option; the pods held back go to the next batch", () => {
    // Sizes large (2 vCPU) and 2xlarge (8), limit cpu 10, three 500m pods that must not share a node.
    // Batch 1: NC1 may be either: it reserves 8 vCPU (2 left); NC2 may only be a large: 2 reserved, 0 left;
    // the third pod waits. Both launch as large (500m + 150m fits). Batch 2 counts them at 2 vCPU each:
    // 6 left, and the third pod gets a large too.
    const plan = planOf(
      c6g({ instanceSizes: ["large", "2xlarge"], limits: { cpu: "10" } }),
      deployment("web", 3, "500m", "100Mi", antiAffinity("kubernetes.io/hostname", "web")),
    );
    const asConfigured = scenario(plan, "as-configured");
    expect(nodesOf(asConfigured)).toEqual(Array(3).fill("c6g.large spot 1 pods"));
    expect(asConfigured.unschedulable).toEqual([]);
  });

  it("preferred anti-affinity: held as required while new nodes can open, given up when the pool's limits stop them", () => {
    // Size large only, limit cpu 4: two nodes. Pods 1 and 2 get a node each; pods 3 and 4 cannot open a third,
    // give up the preference (preferences.go, step 3) and join the emptiest NodeClaims: 2 and 2.
    const preferred = `      affinity:
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
            - weight: 100
              podAffinityTerm: { topologyKey: kubernetes.io/hostname, labelSelector: { matchLabels: { app: web } } }
`;
    const plan = planOf(c6g({ instanceSizes: ["large"], limits: { cpu: "4" } }), deployment("web", 4, "500m", "100Mi", preferred));
    expect(nodesOf(scenario(plan, "as-configured"))).toEqual(["c6g.large spot 2 pods", "c6g.large spot 2 pods"]);
    expect(plan.json.warnings).toContain(
      "Karpenter gives up preferences it cannot meet, one at a time (as configured): default/web: 2 pods placed without preferred pod anti-affinity on kubernetes.io/hostname",
    );
  });

  it("PreferNoSchedule is held as NoSchedule first: a pod goes to an untainted pool before a heavier tainted one", () => {
    const config = {
      name: "demo",
      nodePools: [
        { name: "tainted", instanceFamilies: ["c6g"], weight: 10, taints: [{ key: "example.com/team", value: "a", effect: "PreferNoSchedule" }] },
        { name: "plain", instanceFamilies: ["c6g"], weight: 1 },
      ],
    };
    expect(scenario(planOf(config, deployment("web", 1, "250m", "512Mi")), "as-configured").nodes.map((n) => n.pool)).toEqual(["plain"]);
  });

  it("minValues: a NodeClaim may not narrow below the pool's distinct values", () => {
    // The pool needs 2 families to choose from; a pod that accepts one family alone cannot launch there.
    const config = {
      name: "demo",
      nodePools: [{ name: "diverse", requirements: [{ key: "karpenter.k8s.aws/instance-family", operator: "In", values: ["c6g", "c7g"], minValues: 2 }] }],
    };
    const plan = planOf(config, deployment("pinned", 1, "250m", "512Mi", "      nodeSelector: { karpenter.k8s.aws/instance-family: c7g }\n"));
    expect(scenario(plan, "as-configured").unschedulable).toEqual([
      {
        pod: "default/pinned",
        reason: "NodePool diverse: the types left have 1 distinct karpenter.k8s.aws/instance-family values; the pool's minValues asks for 2",
      },
    ]);
  });

  it("an HPA: planned at its minimum; its maximum adds pods onto those nodes, and the pool's limit stops the growth", () => {
    // No replicas in the Deployment; the HPA says 2 to 8. Pods of 1 CPU, limit cpu 8.
    // Minimum: 2150m needs a c6g.xlarge (3770m free after the DaemonSets: 3 pods).
    // Maximum: pod 3 joins it; pod 4 opens NC2, which may be a large or an xlarge (4 vCPU reserved, 0 left);
    // pods 5 and 6 join NC2 (3 pods: xlarge); pods 7 and 8 find no node, in this batch and the next (8 vCPU
    // launched).
    const hpa = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: { name: web }
spec:
  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: web }
  minReplicas: 2
  maxReplicas: 8
`;
    const web = deployment("web", 1, "1", "100Mi").replace("  replicas: 1\n", "");
    const plan = planOf(c6g({ limits: { cpu: "8" } }), `${web}${hpa}`);
    expect(nodesOf(scenario(plan, "as-configured"))).toEqual(["c6g.xlarge spot 2 pods"]);
    const max = scenario(plan, "autoscaled-max");
    expect(nodesOf(max)).toEqual(["c6g.xlarge spot 3 pods", "c6g.xlarge spot 3 pods"]);
    expect(max.unschedulable).toEqual([{ pod: "default/web (2 pods)", reason: "NodePool default: its limits are reached (cpu 8)" }]);
    expect(plan.json.warnings).toEqual(
      expect.arrayContaining([
        "autoscaled workloads are planned at their minimum replicas; the autoscaled-max scenario adds their maximum: default/web 2 to 8 (HorizontalPodAutoscaler default/web)",
        "at the autoscalers' maximum, 2 pods find no node: the limits of NodePool default (cpu 8) stop the growth",
      ]),
    );
  });

  it("pod affinity to another workload: its pods wait in the queue until that workload's pod has a node, then join it", () => {
    // web (500m x 3) is queued before cache (250m) but needs a node with a cache pod: it fails, goes to the
    // back of the queue (queue.go), cache opens NC1, then web joins it: 1500m + 250m + 150m = 1900m <= 1930m.
    const affinity = `      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - { topologyKey: kubernetes.io/hostname, labelSelector: { matchLabels: { app: cache } } }
`;
    const workload = deployment("web", 3, "500m", "100Mi", affinity) + deployment("cache", 1, "250m", "100Mi");
    expect(nodesOf(scenario(planOf(c6g(), workload), "as-configured"))).toEqual(["c6g.large spot 4 pods"]);
  });

  it("the add-ons' pods: the EBS CSI node plugin and the Pod Identity agent on every node, their controllers on Fargate", () => {
    // Per node: aws-node 50m + kube-proxy 100m + ebs-csi-node 30m / 120 MiB + eks-pod-identity-agent (nothing
    // requested): 180m. A 770m pod then needs 950m: more than a c6g.medium's 940m, so a c6g.large.
    const addons = { "aws-ebs-csi-driver": {}, "eks-pod-identity-agent": {}, "metrics-server": {} };
    const withAddons = planOf(c6g({}), deployment("app", 1, "770m", "100Mi"));
    expect(nodesOf(scenario(withAddons, "as-configured"))).toEqual(["c6g.medium spot 1 pods"]); // 920m without them
    const plan = planOf({ ...c6g(), addons }, deployment("app", 1, "770m", "100Mi"));
    expect(nodesOf(scenario(plan, "as-configured"))).toEqual(["c6g.large spot 1 pods"]);
    // On Fargate: ebs-csi-controller, 2 pods of 50m / 200 MiB (+256 MiB: 0.25 vCPU / 0.5 GB, $0.0123425 each);
    // metrics-server, 1 pod of 100m / 200 MiB (the same size).
    const fargate = plan.json.base.items.filter((i) => i.what.startsWith("Fargate"));
    expect(fargate.map((i) => [i.what.split(" (")[0], i.hourlyUsd])).toEqual([
      ["Fargate: coredns, 2 pods of 0.25 vCPU / 0.5 GB", 0.024685],
      ["Fargate: karpenter, 2 pods of 1 vCPU / 2 GB", 0.09874],
      ["Fargate: ebs-csi-controller, 2 pods of 0.25 vCPU / 0.5 GB", 0.024685],
      ["Fargate: metrics-server, 1 pod of 0.25 vCPU / 0.5 GB", 0.012343],
    ]);
  });

  it("names the pods whose constraints go beyond the model, and what it did with them", () => {
    const plan = planOf(c6g(), deployment("web", 2, "250m", "512Mi", spread("example.com/rack", "web")));
    expect(plan.json.warnings).toContain(
      "pod affinity, anti-affinity or topology spread on example.com/rack is beyond the planner (it models kubernetes.io/hostname, zones and capacity types) and was left out, so the plan may need fewer nodes than Karpenter would launch: default/web",
    );
  });

  it("a Cassandra ring of 3 (OrderedReady): one pod per loop, each on a node of its own; the same pods created at once share one", () => {
    const file = path.join(FIXTURES, "statefulsets", "cassandra.yaml");
    // Each pod requests 1500m / 3072 MiB. Alone, the cheapest type to hold it and the 150m of DaemonSets is a
    // c6a.large (1930m / 3115 MiB; a c6g.large keeps only 3055 MiB); the next pod, a loop later, finds it full.
    expect(nodesOf(scenario(planOf({ name: "demo" }, file), "as-configured"))).toEqual([
      "c6a.large spot 1 pods",
      "c6a.large spot 1 pods",
      "c6a.large spot 1 pods",
    ]);
    // Created at once (Parallel), the three join one NodeClaim: 4650m / 9216 MiB, a c6g.2xlarge.
    const parallel = fs.readFileSync(file, "utf8").replace("  serviceName: cassandra\n", "  serviceName: cassandra\n  podManagementPolicy: Parallel\n");
    expect(nodesOf(scenario(planOf({ name: "demo" }, parallel), "as-configured"))).toEqual(["c6g.2xlarge spot 3 pods"]);
  });
});
