import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { testFolder } from "../../helpers/test-folder";
import { runReplay } from "./run-replay";

/** The command's usage line, written out: the tests hold its contract, not its own constant. */
const USAGE =
  "usage: npm run replay -- --workload <file|dir|-> [--workload ...] (--replicas <curve.csv> | --replicas-from <prometheus url> --from <RFC 3339> --to <RFC 3339>) [--config cluster.yaml] [--format table|markdown|json] [--node-ready 60s] [--consolidate-after 0s,1m,10m] [--policy WhenEmpty,...] [--start <RFC 3339>]";
const ROOT = path.resolve(__dirname, "../../..");

const WEB = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: shop }
spec:
  replicas: 2
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers: [{ name: web, image: nginx, resources: { requests: { cpu: 500m, memory: 1Gi } } }]
`;
const CURVE = "time,workload,replicas\n0,shop/Deployment/web,2\n300,shop/Deployment/web,20\n1800,shop/Deployment/web,2\n";

const run = runReplay;

function files(contents: Record<string, string>): Record<string, string> {
  const dir = testFolder("replay-cli");
  return Object.fromEntries(
    Object.entries(contents).map(([name, text]) => {
      fs.writeFileSync(path.join(dir, name), text);
      return [name, path.join(dir, name)];
    }),
  );
}

describe("npm run replay", () => {
  it("lists every flag problem at once, with the usage, and exits 2 without replaying", async () => {
    const result = await run([
      "--format",
      "xml",
      "--node-ready",
      "20m",
      "--consolidate-after",
      "5m,soon,5m",
      "--policy",
      "Sometimes",
      "--start",
      "today",
      "--x",
    ]);
    expect(result).toEqual({
      code: 2,
      out: "",
      err: [
        "  - --x: unknown argument",
        "  - --workload: required (a Kubernetes YAML file or a folder of them)",
        "  - --replicas: required (a CSV of time,workload,replicas), or --replicas-from <prometheus url>",
        '  - --format: got "xml"; allowed: table, markdown, json',
        '  - --node-ready: got "20m"; must be a duration from 1s to 15m (45s, 90s, 2m): a node that has not registered in 15 minutes is deleted by Karpenter',
        '  - --consolidate-after: got "soon"; each value is a duration as a NodePool takes it (0s, 30s, 5m, 1h) or Never, comma-separated',
        "  - --consolidate-after: 5m given twice",
        '  - --policy: got "Sometimes"; allowed: WhenEmpty, WhenEmptyOrUnderutilized, Balanced',
        '  - --start: got "today"; must be an RFC 3339 time (2026-11-30T00:00:00Z)',
        USAGE,
        "",
      ].join("\n"),
    });
  });

  it("reports the config's, the workload's and the curve's problems together, and prints nothing else", async () => {
    const f = files({
      "w.yaml": WEB,
      "c.yaml": "name: demo\nnodePools: [{ name: default, consolidateAfter: soon }]\n",
      "curve.csv": "0,shop/Deployment/wbe,2\n-5,shop/Deployment/web,1\n",
    });
    const result = await run(["--workload", f["w.yaml"], "--config", f["c.yaml"], "--replicas", f["curve.csv"]]);
    expect(result.code).toBe(2);
    expect(result.out).toBe("");
    expect(result.err).toContain(`${f["c.yaml"]}: 1 problem`);
    expect(result.err).toContain("nodePools[0].consolidateAfter");
    expect(result.err).toContain(`curve.csv: 2 problems`);
    expect(result.err).toContain('line 1: workload "shop/Deployment/wbe" is not in the workload (closest: shop/Deployment/web)');
    expect(result.err).toContain('line 2: time "-5" must be seconds from the start');
  });

  it("checks the Prometheus flags: one source of the curve, a period of RFC 3339 times at most 31 days long", async () => {
    const result = await run([
      "--workload",
      "w.yaml",
      "--replicas",
      "c.csv",
      "--replicas-from",
      "http://prom:9090/?token=secret",
      "--from",
      "2026-11-30T00:00:00Z",
      "--to",
      "2026-11-29",
      "--step",
      "0.5s",
      "--start",
      "2026-11-30T00:00:00Z",
    ]);
    expect(result.code).toBe(2);
    expect(result.err.split("\n").filter((l) => l.startsWith("  - "))).toEqual([
      '  - --replicas-from: got "http://prom:9090/…"; give the server\'s address without a query string or fragment (a token goes in PROMETHEUS_TOKEN)',
      '  - --to: got "2026-11-29"; must be an RFC 3339 time (2026-11-28T00:00:00Z)',
      '  - --step: got "0.5s"; must be whole seconds from 1s to 1h (15s, 60s, 5m)',
      "  - --replicas, --replicas-from: give one: a curve file, or Prometheus to read it from",
      "  - --start: a curve read from Prometheus starts at --from",
    ]);
    expect(result.err).not.toContain("secret");
    const apart = await run(["--workload", "w.yaml", "--replicas-from", "http://prom:9090", "--from", "2026-10-01T00:00:00Z", "--to", "2026-11-02T00:00:00Z"]);
    expect(apart.err).toContain("  - --from, --to: 32.0 days apart; at most 31 days are replayed\n");
    const lone = await run(["--workload", "w.yaml", "--replicas", "c.csv", "--from", "2026-10-01T00:00:00Z", "--prometheus-ca", "ca.pem"]);
    expect(lone.err).toContain("  - --from: works with --replicas-from <url> only\n  - --prometheus-ca: works with --replicas-from <url> only\n");
  });

  it("says which path it could not read, in the flag's words", async () => {
    const f = files({ "w.yaml": WEB });
    expect(await run(["--workload", f["w.yaml"], "--replicas", "/nonexistent/curve.csv"])).toEqual({
      code: 2,
      out: "",
      err: `  - --replicas: got "/nonexistent/curve.csv"; no such file: /nonexistent/curve.csv\n${USAGE}\n`,
    });
  });

  it("refuses a node start under a second, and a --start that is no day", async () => {
    const result = await run(["--workload", "w.yaml", "--replicas", "c.csv", "--node-ready", "0.5s", "--start", "2026-02-30T00:00:00Z"]);
    expect(result.err).toContain('  - --node-ready: got "0.5s"; must be a duration from 1s to 15m');
    expect(result.err).toContain('  - --start: got "2026-02-30T00:00:00Z"; must be an RFC 3339 time (2026-11-30T00:00:00Z)');
  });

  it("refuses --start where the curve gives its own times", async () => {
    const f = files({ "w.yaml": WEB, "curve.csv": "2026-11-30T08:00:00Z,shop/Deployment/web,2\n" });
    const result = await run(["--workload", f["w.yaml"], "--replicas", f["curve.csv"], "--start", "2026-11-30T00:00:00Z"]);
    expect(result).toEqual({
      code: 2,
      out: "",
      err: "--start: 1 problem\n  - the curve gives RFC 3339 times, which say when it starts; --start is for curves in seconds\n",
    });
  });

  it("prints the table with a sparkline of nodes and pending pods per run, side by side, and its warnings on stderr", async () => {
    const f = files({ "w.yaml": WEB, "curve.csv": CURVE });
    const { code, out, err } = await run(["--workload", f["w.yaml"], "--replicas", f["curve.csv"], "--consolidate-after", "0s,10m"]);
    expect(code).toBe(0);
    const header = out.split("\n").find((l) => l.includes("consolidateAfter 0s"));
    expect(header).toMatch(/consolidateAfter 0s\s+consolidateAfter 10m/);
    for (const label of [
      "cost of the period",
      "static: peak launch plan x period",
      "static: settled plan x period",
      "pod wait p50 / p95 / max",
      "consolidation",
    ])
      expect(out).toContain(label);
    expect(out).toMatch(/\n {2}nodes {4}[▁▂▃▄▅▆▇█ ]+ {2}peak \d+\n/);
    expect(out).toMatch(/\n {2}pending {2}[▁▂▃▄▅▆▇█ ]+ {2}peak \d+\n/);
    expect(err).toBe("");
  });

  it("writes Markdown with a Mermaid xychart-beta per run, and its assumptions", async () => {
    const f = files({ "w.yaml": WEB, "curve.csv": CURVE });
    const { code, out } = await run(["--workload", f["w.yaml"], "--replicas", f["curve.csv"], "--format", "markdown", "--node-ready", "90s"]);
    expect(code).toBe(0);
    const chart =
      /```mermaid\nxychart-beta\n {2}title "[^"\n]+"\n {2}x-axis "minutes from the start" \[[\d., ]+\]\n {2}y-axis "count" 0 --> \d+\n {2}line \[[\d, ]+\]\n {2}line \[[\d, ]+\]\n```/;
    expect(out).toMatch(chart);
    expect(out).toContain("| | as configured |");
    expect(out).toContain("- a NodeClaim is a ready node 90 s after it is created (--node-ready)");
  });

  it("writes the JSON interface: one run's figures at the top, or runs with the value each ran with", async () => {
    const f = files({ "w.yaml": WEB, "curve.csv": CURVE });
    const one = JSON.parse((await run(["--workload", f["w.yaml"], "--replicas", f["curve.csv"], "--format", "json"])).out);
    expect(Object.keys(one)).toEqual(expect.arrayContaining(["period", "costUsd", "static", "nodes", "pods", "disruptions", "assumptions", "warnings"]));
    expect(Object.keys(one.period)).toEqual(["from", "to", "seconds"]);
    expect(Object.keys(one.static)).toEqual(expect.arrayContaining(["peakLaunchHourlyUsd", "settledHourlyUsd"]));
    expect(Object.keys(one.nodes)).toEqual(expect.arrayContaining(["max", "final", "finalHourlyUsd", "timeline"]));
    expect(Object.keys(one.nodes.timeline[0])).toEqual(["t", "nodes", "pending", "hourlyUsd"]);
    expect(Object.keys(one.pods.waitSeconds)).toEqual(["p50", "p95", "max"]);
    expect(Object.keys(one.disruptions)).toEqual(expect.arrayContaining(["deleted", "replaced", "podsEvicted"]));
    const several = JSON.parse(
      (await run(["--workload", f["w.yaml"], "--replicas", f["curve.csv"], "--format", "json", "--consolidate-after", "0s,Never", "--policy", "WhenEmpty"]))
        .out,
    );
    expect(several.runs.map((r: { consolidateAfter: string; policy: string }) => [r.consolidateAfter, r.policy])).toEqual([
      ["0s", "WhenEmpty"],
      ["Never", "WhenEmpty"],
    ]);
    // Never: no node is ever removed, so the scale-up's nodes run to the end.
    expect(several.runs[1].disruptions.deleted).toBe(0);
    expect(several.runs[1].nodes.final).toBe(several.runs[1].nodes.max);
    expect(several.runs[0].costUsd).toBeLessThan(several.runs[1].costUsd);
  });

  it("replays the README's example: the demo's working day", async () => {
    const { code, out, err } = await run([
      "--workload",
      path.join(ROOT, "templates/demo"),
      "--replicas",
      path.join(ROOT, "templates/replay/chip-day.csv"),
      "--format",
      "json",
    ]);
    expect([code, err]).toEqual([0, ""]);
    const json = JSON.parse(out);
    // 2 replicas at night, 100 at the lunch peak: more nodes at the peak than at the end, and every pod started.
    expect(json.nodes.max).toBeGreaterThan(json.nodes.final);
    expect(json.pods.stillPending).toBe(0);
    expect(json.period.seconds).toBeGreaterThanOrEqual(86_340);
  });

  it("runs as npm runs it, from the script", () => {
    const { status, stdout, stderr } = spawnSync(process.execPath, [path.join(ROOT, "scripts/replay.js"), "--help"], { cwd: ROOT, encoding: "utf8" });
    expect([status, stdout.split("\n")[0], stderr]).toEqual([0, USAGE, ""]);
  });
});
