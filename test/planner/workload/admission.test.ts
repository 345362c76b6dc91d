import * as path from "node:path";
import { readWorkload } from "../../../src/planner/workload/read-workload";
import { MIB } from "../../../src/shared/quantity";
import { FIXTURES, planOf, scenario } from "../helpers";

// What the cluster's admission adds to a pod when it creates it, on manifests written for these tests
// (fixtures/admission): LimitRange defaults, RuntimeClass overhead and scheduling, pod-level resources. The
// expected requests are added up by hand from the files.

const ADMISSION = path.join(FIXTURES, "admission");
const byId = (file: string) => new Map(readWorkload(path.join(ADMISSION, file)).groups.map((g) => [g.id, g]));

describe("what admission adds to a pod", () => {
  it("LimitRange defaults: requests for containers that set none, init containers too, in the LimitRange's namespace only", () => {
    const groups = byId("limit-range.yaml");
    // api sets nothing: defaultRequest 250m / 256Mi.
    expect(groups.get("team-a/api")?.pod).toMatchObject({ cpuMillis: 250, memoryBytes: 256 * MIB, hasRequests: true });
    // worker: its container requests 400m and gets 256Mi; its init container gets 250m / 256Mi; max(250m, 400m).
    expect(groups.get("team-a/worker")?.pod).toMatchObject({ cpuMillis: 400, memoryBytes: 256 * MIB });
    expect(groups.get("sandbox/api")?.pod).toMatchObject({ cpuMillis: 0, memoryBytes: 0, hasRequests: false });
    expect(readWorkload(path.join(ADMISSION, "limit-range.yaml")).warnings).toEqual(["pods without CPU or memory requests count as zero: sandbox/api"]);
  });

  it("RuntimeClass: its overhead added to each pod's requests, its node selector to the pod's", () => {
    const groups = byId("runtime-class.yaml");
    // 750m / 864Mi, plus Kata's 250m / 160Mi: 1000m / 1024Mi.
    expect(groups.get("ci/sandboxed-build")?.pod).toMatchObject({
      cpuMillis: 1000,
      memoryBytes: 1024 * MIB,
      nodeSelector: [{ key: "katacontainers.io/kata-runtime", operator: "In", values: ["true"] }],
    });
    expect(groups.get("ci/build")?.pod).toMatchObject({ cpuMillis: 750, memoryBytes: 864 * MIB, nodeSelector: [] });
  });

  it("plans the Kata pods on the pool whose nodes carry Kata's label; the other pod joins their NodeClaim before a new one", () => {
    const config = {
      name: "demo",
      nodePools: [
        { name: "default", weight: 10 },
        { name: "kata", labels: { "katacontainers.io/kata-runtime": "true" } },
      ],
    };
    const plan = planOf(config, path.join(ADMISSION, "runtime-class.yaml"));
    const placed = plan.details[0].nodes.map((n) => [n.pool, n.groups.map((g) => `${g.id} x${g.count}`)]);
    // The Kata pods (1000m each) come first and open a NodeClaim of the kata pool, the default pool refusing them;
    // the 750m pod then tries that in-flight NodeClaim before any new one, and fits.
    expect(placed).toEqual([["kata", ["ci/sandboxed-build x4", "ci/build x1"]]]);
    expect(scenario(plan, "as-configured").unschedulable).toEqual([]);
  });

  it("pod-level resources: the pod's requests stand for its containers'; without them, its limits", () => {
    const groups = byId("pod-level-resources.yaml");
    // The containers request 400m / 768Mi together; the pod asks for 1 CPU / 2Gi.
    expect(groups.get("default/storefront")?.pod).toMatchObject({ cpuMillis: 1000, memoryBytes: 2048 * MIB, hasRequests: true });
    // No requests anywhere: the pod's requests default to its limits, 1500m / 3Gi.
    expect(groups.get("default/reports")?.pod).toMatchObject({ cpuMillis: 1500, memoryBytes: 3072 * MIB, hasRequests: true });
    const asConfigured = scenario(planOf({ name: "demo" }, path.join(ADMISSION, "pod-level-resources.yaml")), "as-configured");
    expect([asConfigured.nodes.reduce((n, node) => n + node.pods, 0), asConfigured.unschedulable]).toEqual([3, []]);
  });

  it("ResourceQuota: pods beyond the namespace's quota are never created, a pod without a tracked request is refused, an HPA is capped", () => {
    const workload = readWorkload(path.join(ADMISSION, "resource-quota.yaml"));
    const groups = new Map(workload.groups.map((g) => [g.id, g]));
    // web: 4 pods of 500m (2 CPUs, 4 pods); worker: 2 of 400m (2.8 CPUs, 6 pods), a third would make 7 pods.
    expect([...groups.values()].map((g) => [g.id, g.replicas, g.autoscaling?.maxReplicas])).toEqual([
      ["team-b/web", 4, 4],
      ["team-b/worker", 2, undefined],
      ["team-b/sidecar-less", 0, undefined],
    ]);
    expect(workload.warnings).toEqual([
      "team-b/worker: quota admission lets its controller create 2 of 3 pods; the others are never created: ResourceQuota team-b/compute allows pods: 6 in the namespace",
      'team-b/sidecar-less: quota admission lets its controller create 0 of 1 pod; the others are never created: ResourceQuota team-b/compute tracks requests.memory, and a container of the pod sets no request for memory (quota admission: "must specify requests.memory")',
      "team-b/web: at HorizontalPodAutoscaler team-b/web's maximum of 8, quota admission creates 4: ResourceQuota team-b/compute allows pods: 6 in the namespace",
    ]);
  });

  it("LimitRange bounds: a pod outside a container's or the pod's max, min or limit-to-request ratio is refused and not planned", () => {
    const workload = readWorkload(path.join(ADMISSION, "limit-range-bounds.yaml"));
    expect(workload.groups.map((g) => [g.id, g.replicas])).toEqual([
      ["team-c/fits", 2],
      ["team-c/too-big", 0],
      ["team-c/bursty", 0],
      ["team-c/pair", 0],
    ]);
    const refused = "admission refuses its pods, so its controller never creates them and the plan holds none: LimitRange team-c/bounds refuses it:";
    expect(workload.warnings).toEqual([
      `team-c/too-big: ${refused} container app's cpu limit 2 is above the maximum per Container, 1`,
      `team-c/bursty: ${refused} container app's cpu limit is 10.00 times its request, above the ratio 4`,
      `team-c/pair: ${refused} the pod's memory limit 4 GiB is above the maximum per Pod, 3 GiB`,
    ]);
  });
});
