import { addResources, fits, NO_RESOURCES, requestsOf } from "../../../src/planner/simulation/resources";
import { MIB, podShape } from "./fixtures";

// Amounts of resources, as Karpenter's pkg/utils/resources compares them (Fits: every requested amount within
// what is offered, extended resources included). Follows scheduling/suite_test.go 'should launch pods with
// resources that aren't on any single instance type on different instances' for extended resources.

const node = { cpu: 2000, memory: 4096 * MIB, pods: 10, extended: { "nvidia.com/gpu": 1 } };
const gpuPod = requestsOf(podShape(100, 0, { extended: { "nvidia.com/gpu": 1 } }));

describe("resources.fits: the pod, the pods on the node and the DaemonSets within the node's allocatable", () => {
  it("takes the last millicore, byte and pod, and refuses one more", () => {
    const onNode = { cpu: 1000, memory: 2048 * MIB, pods: 7, extended: {} };
    const daemons = { cpu: 500, memory: 1024 * MIB, pods: 2, extended: {} };
    expect(fits({ cpu: 500, memory: 1024 * MIB, pods: 1, extended: {} }, onNode, daemons, node)).toBe(true);
    expect(fits({ cpu: 501, memory: 0, pods: 1, extended: {} }, onNode, daemons, node)).toBe(false);
    expect(fits({ cpu: 0, memory: 1024 * MIB + 1, pods: 1, extended: {} }, onNode, daemons, node)).toBe(false);
    expect(fits({ cpu: 0, memory: 0, pods: 1, extended: {} }, { ...onNode, pods: 8 }, daemons, node)).toBe(false);
  });

  it("counts extended resources: a second GPU pod does not fit a one-GPU node, nor one on a node without GPUs", () => {
    expect(fits(gpuPod, NO_RESOURCES, NO_RESOURCES, node)).toBe(true);
    expect(fits(gpuPod, gpuPod, NO_RESOURCES, node)).toBe(false);
    expect(fits(gpuPod, NO_RESOURCES, NO_RESOURCES, { ...node, extended: {} })).toBe(false);
  });
});

describe("requestsOf and addResources", () => {
  it("makes one pod of a pod shape's requests, and adds them `times` over", () => {
    expect(gpuPod).toEqual({ cpu: 100, memory: 0, pods: 1, extended: { "nvidia.com/gpu": 1 } });
    expect(addResources(NO_RESOURCES, gpuPod, 3)).toEqual({ cpu: 300, memory: 0, pods: 3, extended: { "nvidia.com/gpu": 3 } });
  });
});
