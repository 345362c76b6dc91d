import * as path from "node:path";
import { ExistingNode } from "../../../src/planner/simulation/existing-node";
import { HostPortUsage } from "../../../src/planner/simulation/host-port-usage";
import type { PodData } from "../../../src/planner/simulation/pod-data";
import type { HostPort } from "../../../src/planner/workload/workload-model";
import { FIXTURES, planOf, scenario } from "../helpers";
import { daemonSet, podGroup, podShape, pool, runningNode, simulation } from "./fixtures";

// Host ports, as Karpenter tracks them on each node (v1.14.1 pkg/scheduling/hostportusage.go and
// hostportusage_test.go): one pod per node may bind an <address, port, protocol>; the unspecified address clashes
// with every address; a DaemonSet's ports are held on every node it runs on (scheduler.go, with the DaemonSet overhead).

const tcp = (port: number, ip = "0.0.0.0"): HostPort => ({ port, protocol: "TCP", ip });
const web = podGroup("web", 3, podShape(100, 64, { hostPorts: [tcp(80)] }));

const podOf = (pods: ReadonlyMap<string, PodData>, name: string): PodData => {
  const pod = pods.get(name);
  if (pod === undefined) throw new Error(`no group ${name}`);
  return pod;
};

describe("HostPortUsage", () => {
  it("clashes on the same port and protocol when the addresses are equal or one is unspecified", () => {
    const usage = new HostPortUsage([{ port: tcp(80, "10.0.0.1"), by: "default/a" }]);
    expect(usage.conflict([tcp(80, "10.0.0.1")])).toBe("host port 80/TCP on 10.0.0.1 is taken on the node by default/a");
    expect(usage.conflict([tcp(80)])).toBe("host port 80/TCP is taken on the node by default/a");
    expect(usage.conflict([tcp(80, "10.0.0.2")])).toBeUndefined();
    expect(usage.conflict([{ port: 80, protocol: "UDP", ip: "0.0.0.0" }])).toBeUndefined();
    expect(usage.conflict([tcp(443)])).toBeUndefined();
  });

  it("a NodeClaim takes one replica of a pod with hostPort 80; the next needs a NodeClaim of its own", () => {
    const { scheduler, pods } = simulation({ pools: [pool("default")], groups: [web] });
    const results = scheduler.solve([{ pod: podOf(pods, "web"), count: 3 }]);
    expect(results.newNodeClaims.map((nc) => nc.podCount)).toEqual([1, 1, 1]);
  });

  it("a DaemonSet's host port is held on every node of the pools it runs on: a pod on that port finds none", () => {
    const exporter = daemonSet("node-exporter", podShape(10, 0, { hostNetwork: true, hostPorts: [tcp(9100)] }));
    const clashing = podGroup("metrics", 1, podShape(100, 64, { hostPorts: [tcp(9100)] }));
    const { scheduler, pods } = simulation({ pools: [pool("default")], groups: [clashing], daemonSets: [exporter] });
    expect(scheduler.solve([{ pod: podOf(pods, "metrics"), count: 1 }]).pending.map((p) => p.reason)).toEqual([
      "NodePool default: host port 9100/TCP is taken on the node by DaemonSet kube-system/node-exporter",
    ]);
  });

  it("a node that exists holds the ports of its pods and its DaemonSet pods", () => {
    const state = runningNode("ip-10-0-0-1", "m.large", { pods: [{ group: web, count: 1 }] });
    const sim = simulation({ pools: [pool("default")], groups: [web], existing: [state] });
    const node = new ExistingNode(state, sim.topology, []);
    const pod = podOf(sim.pods, "web");
    expect(node.add(pod, pod.forms[0])).toEqual({ ok: false, reason: "host port 80/TCP is taken on the node by default/web" });
  });

  it("podinfo's frontend binds ports 80 and 443: at its HPA's maximum, 4 replicas on 4 nodes", () => {
    const plan = planOf({ name: "demo" }, path.join(FIXTURES, "real-workloads", "podinfo-secure"));
    const max = plan.details.find((d) => d.name === "autoscaled-max");
    // The backend (HPA 1 to 2, 100m / 32Mi, no host port) joins the frontend's nodes.
    expect(max?.nodes.map((n) => n.groups.find((g) => g.id === "secure/frontend")?.count)).toEqual([1, 1, 1, 1]);
    expect(scenario(plan, "as-configured").nodeCount).toBe(1);
  });
});
