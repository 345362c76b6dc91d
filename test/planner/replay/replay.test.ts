import * as fs from "node:fs";
import * as path from "node:path";
import { makeReplay, type WhatIf } from "../../../src/planner/replay/make-replay";
import { type ReplayJson, type ReplayRunJson, replayJson } from "../../../src/planner/replay/replay-json";
import { testFolder } from "../../helpers/test-folder";

// Curves worked by hand through Karpenter 1.14.1's clocks: the batch window (idle 1 s, at most 10 s), a node ready
// 60 s after its NodeClaim, the disruption controller's pass every 10 s (on the 10 s grid from the start while
// nothing else moves it), consolidateAfter from the node's last pod event, 15 s of validation before a command
// starts, the instance terminated 5 s after its NodeClaim is deleted; EC2 billed per second from NodeClaim
// creation to termination. Prices are Karpenter's published on-demand prices for us-east-1
// (zz_generated.pricing_aws.go): m5.4xlarge $0.768, m5.large $0.096, c5.large $0.085.

const ROOT = path.resolve(__dirname, "../../..");
const SEED = path.join(ROOT, "test/planner/fixtures/seed-article");
const TIMING = { batchIdleSeconds: 1, batchMaxSeconds: 10, nodeReadySeconds: 60 };

/** A Deployment of `cpu` / `memory` per pod, its replicas 0 unless the curve says otherwise. */
function deployment(name: string, cpu: string, memory: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: demo
spec:
  replicas: 0
  selector:
    matchLabels: { app: ${name} }
  template:
    metadata:
      labels: { app: ${name} }
    spec:
      containers:
        - name: app
          image: public.ecr.aws/nginx/nginx:1.27
          resources:
            requests: { cpu: ${cpu}, memory: ${memory} }
`;
}

/** One on-demand amd64 pool of a single instance type, so that every price is known by hand. */
function cluster(size: "4xlarge" | "large", disruption: string): string {
  return `name: replay
nodePools:
  - name: steps
    architectures: [amd64]
    capacityTypes: [on-demand]
    instanceFamilies: [m5]
    instanceSizes: [${size}]
${disruption
  .split("\n")
  .map((l) => `    ${l}`)
  .join("\n")}
`;
}

function replayOf(files: { workload: string; cluster: string; curve: string }, whatIfs: readonly WhatIf[] = [{}]): ReplayJson {
  const dir = testFolder("replay");
  fs.writeFileSync(path.join(dir, "workload.yaml"), files.workload);
  fs.writeFileSync(path.join(dir, "cluster.yaml"), files.cluster);
  const replay = makeReplay({
    workload: [path.join(dir, "workload.yaml")],
    config: path.join(dir, "cluster.yaml"),
    env: {},
    curve: { text: files.curve, source: "curve.csv" },
    timing: TIMING,
    whatIfs,
  });
  return replayJson(replay);
}

const single = (json: ReplayJson) => json as ReplayJson & ReplayRunJson;
/** The node count and pending pods the timeline says at `t` (the last point at or before it). */
function at(run: ReplayRunJson, t: number) {
  const point = [...run.nodes.timeline].reverse().find((p) => p.t <= t);
  return point === undefined ? undefined : { nodes: point.nodes, pending: point.pending };
}

const STEP_CURVE = "time,workload,replicas\n0,demo/Deployment/step,0\n600,demo/Deployment/step,10\n4200,demo/Deployment/step,0\n";

describe("replay: a step worked by hand", () => {
  // 10 pods of 1 CPU / 2 GiB arrive at 600 s and leave at 4200 s; the pool launches m5.4xlarge only.
  const json = single(replayOf({ workload: deployment("step", "1", "2Gi"), cluster: cluster("4xlarge", "consolidateAfter: 5m"), curve: STEP_CURVE }));

  it("launches one node when the batch closes, 1 s after the pods came, and the pods run once it is ready, 60 s on", () => {
    expect(at(json, 599)).toEqual({ nodes: 0, pending: 0 });
    expect(at(json, 600)).toEqual({ nodes: 0, pending: 10 });
    expect(at(json, 601)).toEqual({ nodes: 1, pending: 10 });
    expect(at(json, 660)).toEqual({ nodes: 1, pending: 10 });
    expect(at(json, 661)).toEqual({ nodes: 1, pending: 0 });
    expect(json.pods).toEqual({ started: 10, waitSeconds: { p50: 61, p95: 61, max: 61 }, stillPending: 0, unschedulable: [] });
    expect(json.nodes.max).toBe(1);
    expect(json.nodes.launched).toBe(1);
  });

  it("removes the node by emptiness 5 minutes after its last pod went, once the 15 s validation has passed", () => {
    // Empty at 4200, consolidatable at 4500, computed at the 4500 s pass, started at 4515, terminated at 4520.
    expect(json.disruptions.commands).toEqual([{ t: 4515, method: "emptiness", kind: "delete", nodes: ["steps-1"], replacements: [] }]);
    expect(at(json, 4519)).toEqual({ nodes: 1, pending: 0 });
    expect(at(json, 4520)).toEqual({ nodes: 0, pending: 0 });
    expect(json.disruptions).toMatchObject({ deleted: 1, replaced: 0, podsEvicted: 0, abandoned: 0 });
    expect(json.nodes.final).toBe(0);
  });

  it("bills the node per second from its NodeClaim to its termination", () => {
    // m5.4xlarge at $0.768/hour from 601 s to 4520 s: 3,919 s.
    expect(json.costUsd).toBeCloseTo((0.768 * 3919) / 3600, 6);
    expect(json.costBreakdown).toEqual({ ec2Usd: json.costUsd, fargateUsd: 0 });
  });

  it("sets beside it what the static figures would have claimed for the same period", () => {
    expect(json.static.peakLaunchHourlyUsd).toBe(0.768);
    expect(json.static.settledHourlyUsd).toBe(0);
    // The period ends at the first pass after the node went that finds nothing: 4525 s.
    expect(json.period).toEqual({ from: 0, to: 4525, seconds: 4525 });
    expect(json.static.peakLaunchUsd).toBeCloseTo((0.768 * 4525) / 3600, 6);
    expect(json.settled).toBe(true);
  });
});

describe("replay: consolidateAfter what-ifs on the same curve", () => {
  const json = replayOf({ workload: deployment("step", "1", "2Gi"), cluster: cluster("4xlarge", "consolidateAfter: 5m"), curve: STEP_CURVE }, [
    { consolidateAfter: "0s", consolidateAfterSeconds: 0 },
    { consolidateAfter: "10m", consolidateAfterSeconds: 600 },
  ]);

  it("runs the curve once per value, each node removed consolidateAfter after its last pod event, plus 20 s", () => {
    const runs = json.runs ?? [];
    expect(runs.map((r) => r.consolidateAfter)).toEqual(["0s", "10m"]);
    // 0s: computed at the 4200 s pass, terminated at 4220; 10m: consolidatable at 4800, terminated at 4820.
    expect(runs.map((r) => r.disruptions.commands.map((c) => c.t))).toEqual([[4215], [4815]]);
    expect(runs[0].costUsd).toBeCloseTo((0.768 * (4220 - 601)) / 3600, 6);
    expect(runs[1].costUsd).toBeCloseTo((0.768 * (4820 - 601)) / 3600, 6);
    // The waits do not depend on consolidation here.
    expect(runs.map((r) => r.pods.waitSeconds)).toEqual([
      { p50: 61, p95: 61, max: 61 },
      { p50: 61, p95: 61, max: 61 },
    ]);
  });
});

describe("replay: Karpenter's disruption and provisioning tests that involve time, in spirit", () => {
  it("a node that never got a pod is consolidatable from its initialization (nodeclaim/disruption consolidation_test: 'based on the nodeclaim initialized time')", () => {
    // The pods come at 600 and go at 630, before their node is ready at 661: the ReplicaSet deletes pods bound to
    // no node first, so none ever runs. Consolidatable at 661 + 5m = 961; the pass at 970; started 985; gone at 990.
    const json = single(
      replayOf({
        workload: deployment("blip", "1", "2Gi"),
        cluster: cluster("4xlarge", "consolidateAfter: 5m"),
        curve: "0,demo/Deployment/blip,0\n600,demo/Deployment/blip,10\n630,demo/Deployment/blip,0\n",
      }),
    );
    expect(json.pods.started).toBe(0);
    expect(json.disruptions.commands).toEqual([{ t: 985, method: "emptiness", kind: "delete", nodes: ["steps-1"], replacements: [] }]);
    expect(json.costUsd).toBeCloseTo((0.768 * (990 - 601)) / 3600, 6);
  });

  it("abandons a command when pods schedule on its node during the 15 s validation (consolidation_test TTL: 'should not delete node if pods schedule ... during the TTL wait')", () => {
    // consolidateAfter 0s: emptiness computes at 4200 as the pods go; 10 pods come back at 4205 and bind to the
    // node at once (it is ready and not yet tainted); at 4215 the node is no longer empty: the command is dropped.
    const json = single(
      replayOf({
        workload: deployment("step", "1", "2Gi"),
        cluster: cluster("4xlarge", "consolidateAfter: 0s"),
        curve: `${STEP_CURVE}4205,demo/Deployment/step,10\n`,
      }),
    );
    expect(json.disruptions).toMatchObject({ deleted: 0, abandoned: 1, commands: [] });
    expect(json.nodes.final).toBe(1);
    // 20 pods started: 10 waited the batch and the node, 10 none.
    expect(json.pods).toMatchObject({ started: 20, waitSeconds: { p50: 0, p95: 61, max: 61 } });
  });

  it("deletes empty nodes within the budget, deleting nodes counting against it (emptiness_test Budgets: 'should only allow 3 empty nodes to be disrupted')", () => {
    // One 1.5-CPU pod per m5.large (2 vCPU): 10 nodes. Empty at 4200 with consolidateAfter 0s and a 30% budget:
    // ceil(30% of 10) = 3, then 3 of 7, 2 of 4, 1 of 2, 1 of 1; each command waits for the last one's nodes to go.
    const json = single(
      replayOf({
        workload: deployment("wide", "1500m", "1Gi"),
        cluster: cluster("large", 'consolidateAfter: 0s\nbudgets: [{ nodes: "30%" }]'),
        curve: "0,demo/Deployment/wide,0\n600,demo/Deployment/wide,10\n4200,demo/Deployment/wide,0\n",
      }),
    );
    expect(json.nodes.max).toBe(10);
    expect(json.disruptions.commands.map((c) => [c.t, c.nodes.length])).toEqual([
      [4215, 3],
      [4240, 3],
      [4265, 2],
      [4290, 1],
      [4315, 1],
    ]);
    expect(at(json, 4320)).toEqual({ nodes: 0, pending: 0 });
    // Ten m5.large from 601 s: 3 to 4220, 3 to 4245, 2 to 4270, 1 to 4295, 1 to 4320.
    const seconds = 3 * (4220 - 601) + 3 * (4245 - 601) + 2 * (4270 - 601) + (4295 - 601) + (4320 - 601);
    expect(json.costUsd).toBeCloseTo((0.096 * seconds) / 3600, 6);
  });

  it("holds disruption while a scheduled budget allows none, and acts once its window ends (budgets read at the simulated time)", () => {
    // Budget nodes: 0 from 01:00 UTC for an hour (3600 s to 7200 s from the 1970-01-01T00:00Z start); the node is
    // empty at 4200: the first pass outside the window is at 7200, the command starts at 7215, the node goes at 7220.
    const json = single(
      replayOf({
        workload: deployment("step", "1", "2Gi"),
        cluster: cluster("4xlarge", 'consolidateAfter: 0s\nbudgets:\n  - { nodes: "0", schedule: "0 1 * * *", duration: 1h }\n  - { nodes: "100%" }'),
        curve: STEP_CURVE,
      }),
    );
    expect(json.disruptions.commands.map((c) => c.t)).toEqual([7215]);
    expect(json.costUsd).toBeCloseTo((0.768 * (7220 - 601)) / 3600, 6);
  });

  it("closes a batch 10 s after it opened while pods keep coming, and places later pods on the NodeClaim still starting (batcher.go Wait; provisioner.go Schedule)", () => {
    // One pod every 0.5 s from 600 s to 612 s: 25 pods. The window opens at 600 and closes at its 10 s maximum,
    // 610, with 21 pods: one m5.4xlarge, ready at 670. The 4 later pods close a second window at 613 (1 s idle) and
    // go onto that NodeClaim, which has room: no second node. Waits: 670 - created, from 70 s down to 58 s.
    const rows = Array.from({ length: 25 }, (_, i) => `${600 + i * 0.5},demo/Deployment/burst,${i + 1}`);
    const json = single(
      replayOf({
        workload: deployment("burst", "100m", "128Mi"),
        cluster: cluster("4xlarge", "consolidateAfter: 5m"),
        curve: `0,demo/Deployment/burst,0\n${rows.join("\n")}\n`,
      }),
    );
    expect(json.nodes.launched).toBe(1);
    expect(at(json, 609.5)).toEqual({ nodes: 0, pending: 20 });
    expect(at(json, 610)).toEqual({ nodes: 1, pending: 21 });
    expect(at(json, 670)).toEqual({ nodes: 1, pending: 0 });
    // Sorted waits 58, 58.5, ..., 70: the 13th of 25 is 64, the 24th 69.5.
    expect(json.pods.waitSeconds).toEqual({ p50: 64, p95: 69.5, max: 70 });
  });
});

describe("replay: the batch window as the config sets it", () => {
  it("closes a batch after the config's karpenter.batchMaxDuration, and says so", () => {
    // The same pods every 0.5 s from 600 s, with batchMaxDuration 5s: the first batch closes at 605 with 11 pods,
    // the next opens at 605.5 and closes at 610.5 (5 s on), the last at 613 (1 s after the last pod at 612).
    const rows = Array.from({ length: 25 }, (_, i) => `${600 + i * 0.5},demo/Deployment/burst,${i + 1}`);
    const dir = testFolder("replay-batch");
    fs.writeFileSync(path.join(dir, "workload.yaml"), deployment("burst", "100m", "128Mi"));
    fs.writeFileSync(
      path.join(dir, "cluster.yaml"),
      cluster("4xlarge", "consolidateAfter: 5m").replace("nodePools:", "karpenter: { batchMaxDuration: 5s }\nnodePools:"),
    );
    const replay = makeReplay({
      workload: [path.join(dir, "workload.yaml")],
      config: path.join(dir, "cluster.yaml"),
      env: {},
      curve: { text: `0,demo/Deployment/burst,0\n${rows.join("\n")}\n`, source: "curve.csv" },
      timing: TIMING,
      whatIfs: [{}],
    });
    const json = single(replayJson(replay));
    expect(replay.timing).toMatchObject({ batchIdleSeconds: 1, batchMaxSeconds: 5 });
    expect(at(json, 604.5)).toEqual({ nodes: 0, pending: 10 });
    expect(at(json, 605)).toEqual({ nodes: 1, pending: 11 });
    // One node: the later batches' pods go onto the NodeClaim still starting. The first pod waited 665 - 600.
    expect(json.nodes.launched).toBe(1);
    expect(json.pods.waitSeconds.max).toBe(65);
    expect(json.assumptions).toContain(
      "the provisioner's batch closes 1 s after the last new pending pod, or 5 s after the first (BATCH_IDLE_DURATION, BATCH_MAX_DURATION: the config's karpenter.batchIdleDuration and batchMaxDuration where set, Karpenter's 1s and 10s otherwise)",
    );
  });
});

describe("replay: a replacement launched before the node it replaces drains", () => {
  // m5 large or 4xlarge, on-demand. 10 pods of 1 CPU at 600 s: one m5.4xlarge ($0.768). At 4200 s 9 go and one
  // stays: consolidatable at 4500, single-node consolidation replaces the node by an m5.large ($0.096), computed at
  // the 4500 pass. The command starts at 4515 and launches the m5.large; once it is ready, at 4575, the m5.4xlarge
  // is deleted, its pod created again on the replacement, and its instance terminated at 4580.
  const json = single(
    replayOf({
      workload: deployment("step", "1", "2Gi"),
      cluster: cluster("4xlarge", "consolidateAfter: 5m").replace("instanceSizes: [4xlarge]", "instanceSizes: [large, 4xlarge]"),
      curve: "0,demo/Deployment/step,0\n600,demo/Deployment/step,10\n4200,demo/Deployment/step,1\n",
    }),
  );

  it("runs both nodes while the replacement starts, then only the replacement", () => {
    expect(json.disruptions.commands).toEqual([{ t: 4515, method: "single-node", kind: "replace", nodes: ["steps-1"], replacements: ["steps-2"] }]);
    expect(at(json, 4514)).toEqual({ nodes: 1, pending: 0 });
    expect(at(json, 4515)).toEqual({ nodes: 2, pending: 0 });
    expect(at(json, 4579)).toEqual({ nodes: 2, pending: 0 });
    expect(at(json, 4580)).toEqual({ nodes: 1, pending: 0 });
    expect(json.disruptions).toMatchObject({ deleted: 0, replaced: 1, podsEvicted: 1 });
    // The evicted pod is created again as the replacement is ready: it does not wait.
    expect(json.pods).toMatchObject({ started: 11, waitSeconds: { p50: 61, p95: 61, max: 61 } });
    expect(json.nodes.final).toBe(1);
    expect(json.nodes.finalHourlyUsd).toBe(0.096);
  });

  it("bills the old node until its termination and the replacement from its NodeClaim", () => {
    // The period ends at 4875: the replacement's pod event at 4575 plus consolidateAfter, a pass that finds
    // nothing cheaper than an m5.large, and a quiet cluster.
    expect(json.period.seconds).toBe(4875);
    expect(json.costUsd).toBeCloseTo((0.768 * (4580 - 601) + 0.096 * (4875 - 4515)) / 3600, 6);
  });
});

describe("replay: a replacement that is not ready within 10 minutes", () => {
  it("abandons the command, gives the replacement's room back, and keeps the node it would have replaced (queue.go maxRetryDuration)", () => {
    // The same replace with nodes that take 11 minutes to start: the command starts at 4515 and launches an
    // m5.large; it is not initialized by 5115, so the command is dropped and the m5.4xlarge stays. The m5.large is
    // ready at 5175, empty (the room it held is given back): the pass then finds the m5.4xlarge's pod a place on it,
    // and deletes the m5.4xlarge (computed at 5175, started at 5190).
    const dir = testFolder("replay-timeout");
    fs.writeFileSync(path.join(dir, "workload.yaml"), deployment("step", "1", "2Gi"));
    fs.writeFileSync(
      path.join(dir, "cluster.yaml"),
      cluster("4xlarge", "consolidateAfter: 5m").replace("instanceSizes: [4xlarge]", "instanceSizes: [large, 4xlarge]"),
    );
    const json = single(
      replayJson(
        makeReplay({
          workload: [path.join(dir, "workload.yaml")],
          config: path.join(dir, "cluster.yaml"),
          env: {},
          curve: { text: "0,demo/Deployment/step,0\n600,demo/Deployment/step,10\n4200,demo/Deployment/step,1\n", source: "curve.csv" },
          timing: { ...TIMING, nodeReadySeconds: 660 },
          whatIfs: [{}],
        }),
      ),
    );
    expect(json.disruptions.commands.map((c) => [c.t, c.method, c.kind, c.nodes, c.replacements])).toEqual([
      [4515, "single-node", "replace", ["steps-1"], ["steps-2"]],
      [5190, "single-node", "delete", ["steps-1"], []],
    ]);
    expect(json.disruptions.abandoned).toBe(1);
    expect(json.nodes).toMatchObject({ max: 2, final: 1, finalHourlyUsd: 0.096, launched: 2 });
  });
});

describe("replay: the seed article's curve (4 -> 100 -> 4 on its m5/c5 Provisioner)", () => {
  const json = single(
    (() => {
      const replay = makeReplay({
        workload: [path.join(SEED, "chip-100.yaml")],
        config: path.join(SEED, "cluster.yaml"),
        env: {},
        curve: { text: "0,chip/Deployment/chip,4\n600,chip/Deployment/chip,100\n2400,chip/Deployment/chip,4\n", source: "article.csv" },
        timing: TIMING,
        whatIfs: [{}],
      });
      return replayJson(replay);
    })(),
  );

  it("starts from the 4 pods settled on one c5.large, the cheapest m5/c5 large or 2xlarge that holds them", () => {
    expect(json.nodes.timeline[0]).toEqual({ t: 0, nodes: 1, pending: 0, hourlyUsd: 0.085 });
  });

  it("peaks at the node already running and the nodes launched for the others: three m5.2xlarge of 31 pods and one c5.large", () => {
    // By hand: the running c5.large takes 2 more pods at once (1,930m allocatable: 6 x 250m beside its DaemonSets);
    // the batch's 94 go 31 to an m5.2xlarge (7,910m: 31 x 250m, CPU-bound), three of them, and the last one to the
    // cheapest type that holds it, a c5.large. Spot only, priced at the on-demand rate offline.
    expect(json.nodes.atPeak.map((n) => [n.instanceType, n.pods, n.hourlyUsd])).toEqual([
      ["c5.large", 6, 0.085],
      ["m5.2xlarge", 31, 0.384],
      ["m5.2xlarge", 31, 0.384],
      ["m5.2xlarge", 31, 0.384],
      ["c5.large", 1, 0.085],
    ]);
    expect(json.nodes.max).toBe(5);
    expect(json.nodes.launched).toBe(4);
    // Every pod runs 61 s after the scale-up at the most: the batch, then one node start.
    expect(json.pods.waitSeconds.max).toBe(61);
    expect(at(json, 661)).toEqual({ nodes: 5, pending: 0 });
  });

  it("scales in within the default 10% budget, one node per command, each waiting for the last to go", () => {
    // At 2400 the ReplicaSet deletes the most crowded nodes' pods first: the three m5.2xlarge and 3 of the first
    // c5.large's 6, leaving 3 there and 1 on the last c5.large. That pod moves to the first (single-node delete,
    // computed at the 2400 pass, started 2415); the empty m5.2xlarge are consolidatable at 2460 (consolidateAfter
    // 1m, the config's default) and go one at a time: ceil(10% of 4, then 3, then 2) = 1, 25 s apart.
    expect(json.disruptions.commands.map((c) => [c.t, c.method])).toEqual([
      [2415, "single-node"],
      [2480, "emptiness"],
      [2505, "emptiness"],
      [2530, "emptiness"],
    ]);
    expect(json.disruptions.podsEvicted).toBe(1);
    expect(at(json, 2534)?.nodes).toBe(2);
    expect(at(json, 2535)?.nodes).toBe(1);
  });

  it("ends where 4 pods settle: the one c5.large, after the scale-down", () => {
    expect(json.nodes.final).toBe(1);
    expect(json.nodes.finalHourlyUsd).toBe(0.085);
    expect(json.static.settledHourlyUsd).toBe(0.085);
  });
});
