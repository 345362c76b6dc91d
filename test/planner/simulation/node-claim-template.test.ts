import { NodeClaimTemplate } from "../../../src/planner/simulation/node-claim-template";
import { requestsOf } from "../../../src/planner/simulation/resources";
import { EPHEMERAL_STORAGE } from "../../../src/planner/workload/workload-model";
import { daemonSet, newFitCache, offeringsOf, podGroup, podShape, pool, simulation } from "./fixtures";

// A NodePool's template, and the ephemeral storage its nodes offer: every type of a node class alike, what
// kubelet leaves of the root volume (the fixtures' node class has Karpenter's default 20Gi, which leaves 20 - 1 - 2 = 17Gi), as Karpenter's AWS provider
// computes it (types.go ephemeralStorage, kubeReservedResources, evictionThreshold); pods are packed against
// it like any other resource (resources.Fits).

const GIB = 2 ** 30;
const scratch = (gib: number) => podShape(100, 128, { extended: { [EPHEMERAL_STORAGE]: gib * GIB } });

describe("NodeClaimTemplate: ephemeral storage", () => {
  it("says why no node of the pool holds a pod that needs more ephemeral storage than kubelet leaves it", () => {
    const [offerings] = offeringsOf([pool("default")], newFitCache());
    const template = new NodeClaimTemplate(offerings, false);
    expect(template.ephemeralStorageShortfall(requestsOf(scratch(17)))).toBeUndefined();
    expect(template.ephemeralStorageShortfall(requestsOf(scratch(18)))).toBe(
      "the pod requests 18 GiB of ephemeral storage; its nodes offer 17 GiB (what kubelet leaves of node class default's root volume, less the DaemonSets' share)",
    );
  });

  it("counts the DaemonSets' ephemeral storage against it", () => {
    const [offerings] = offeringsOf([pool("default")], newFitCache(), [daemonSet("logs", scratch(1))]);
    expect(new NodeClaimTemplate(offerings, false).ephemeralStorageShortfall(requestsOf(scratch(16.5)))).toBe(
      "the pod requests 16.5 GiB of ephemeral storage; its nodes offer 16 GiB (what kubelet leaves of node class default's root volume, less the DaemonSets' share)",
    );
  });

  it("packs pods by it: three pods of 8Gi, two to a node of 17Gi, open two NodeClaims", () => {
    const { scheduler, pods } = simulation({ pools: [pool("default")], groups: [podGroup("cache", 3, scratch(8))] });
    const results = scheduler.solve([{ pod: pods.get("cache") as NonNullable<ReturnType<typeof pods.get>>, count: 3 }]);
    expect(results.newNodeClaims.map((nc) => nc.podCount)).toEqual([2, 1]);
  });

  it("a pod too large for every node is refused by the pool with that reason", () => {
    const { scheduler, pods } = simulation({ pools: [pool("default")], groups: [podGroup("build", 1, scratch(30))] });
    const results = scheduler.solve([{ pod: pods.get("build") as NonNullable<ReturnType<typeof pods.get>>, count: 1 }]);
    expect(results.pending.map((p) => p.reason)).toEqual([
      "NodePool default: the pod requests 30 GiB of ephemeral storage; its nodes offer 17 GiB (what kubelet leaves of node class default's root volume, less the DaemonSets' share)",
    ]);
  });
});
