import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runPlanCli } from "../../src/planner/cli";
import { NO_SPOT_OFFLINE } from "./helpers";

/** The planner's usage line, written out: the tests hold the command's contract, not its own constant. */
const USAGE =
  "usage: npm run plan -- --workload <file|dir|-> [--workload ...] [--config cluster.yaml] [--region <region>] [--format table|markdown|json] [--live] [--prometheus <url>]";
/** The flags the help lists, each with its argument. */
const HELP_FLAGS = ["--workload <file|dir|->", "--config <file>", "--region <region>", "--format <format>", "--live", "--prometheus <url>", "--help"];
const flagsOf = (help: string) =>
  help
    .split("\n")
    .filter((line) => line.startsWith("  --"))
    .map((line) => line.trim().split(/\s{2,}/)[0]);

const ROOT = path.resolve(__dirname, "../..");
const DEMO = path.join(ROOT, "templates/demo");
/** Two pods of 250m / 512Mi, no constraint: one node, for the output contract (the demo's plan is held in plan/build-plan.test.ts). */
const WEB = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 2
  template:
    spec:
      containers: [{ name: web, resources: { requests: { cpu: 250m, memory: 512Mi } } }]
`;

async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runPlanCli(args, { out: (t) => (out += t), err: (t) => (err += `${t}\n`), env });
  return { code, out, err };
}

function tmp(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "planner-cli-"));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

describe("npm run plan", () => {
  it("lists every flag problem at once, with the usage, and exits 2", async () => {
    expect(await run([])).toEqual({ code: 2, out: "", err: `  - --workload: required (a Kubernetes YAML file or a folder of them)\n${USAGE}\n` });
    expect(await run(["--workload", DEMO, "--format", "xml", "--region", "moon-1", "--bogus", "--config"])).toEqual({
      code: 2,
      out: "",
      err: [
        "  - --bogus: unknown argument",
        "  - --config: missing value",
        '  - --format: got "xml"; allowed: table, markdown, json',
        '  - --region: got "moon-1"; must be an AWS region where EKS and Fargate run, such as us-east-1 or eu-west-1 (docs/configuration.md lists them)',
        USAGE,
        "",
      ].join("\n"),
    });
  });

  it("checks --region against the AWS regions, not a pattern", async () => {
    expect(await run(["--workload", DEMO, "--region", "zz-east-1"])).toEqual({
      code: 2,
      out: "",
      err: `  - --region: got "zz-east-1"; must be an AWS region where EKS and Fargate run, such as us-east-1 or eu-west-1 (docs/configuration.md lists them)\n${USAGE}\n`,
    });
  });

  it("takes --live as a switch: no value, once", async () => {
    expect(await run(["--workload", DEMO, "--live=false"])).toEqual({
      code: 2,
      out: "",
      err: `  - --live: takes no value (got "--live=false"); leave it out to plan offline\n${USAGE}\n`,
    });
    expect(await run(["--workload", DEMO, "--live", "--live"])).toEqual({ code: 2, out: "", err: `  - --live: given twice\n${USAGE}\n` });
  });

  it("prints the help on stdout and exits 0", async () => {
    const help = await run(["--help"]);
    expect({ code: help.code, err: help.err, first: help.out.split("\n")[0], flags: flagsOf(help.out) }).toEqual({
      code: 0,
      err: "",
      first: USAGE,
      flags: HELP_FLAGS,
    });
    expect(await run(["--workload", DEMO, "-h"])).toEqual(help);
  });

  it("names the flag, the value and the path tried when a path is empty, missing or a folder", async () => {
    expect(await run(["--workload", "", "--config", ""])).toEqual({
      code: 2,
      out: "",
      err: [
        '  - --workload: got ""; must name a Kubernetes YAML file or a folder of them',
        '  - --config: got ""; must name a cluster file (YAML or JSON)',
        USAGE,
        "",
      ].join("\n"),
    });
    expect(await run(["--workload", DEMO, "--config", "clusters"])).toEqual({
      code: 2,
      out: "",
      err: `  - --config: got "clusters"; is a folder; a plan is for one cluster file\n${USAGE}\n`,
    });
    expect(await run(["--workload", "/nonexistent/app.yaml", "--config", "/nonexistent.yaml"])).toEqual({
      code: 2,
      out: "",
      err: [
        '  - --workload: got "/nonexistent/app.yaml"; no such file or folder: /nonexistent/app.yaml',
        '  - --config: got "/nonexistent.yaml"; no such file: /nonexistent.yaml',
        USAGE,
        "",
      ].join("\n"),
    });
  });

  it("plans several --workload as one workload, as kubectl apply -f a -f b applies them, and refuses a path given twice", async () => {
    const dir = tmp({ "web.yaml": WEB, "api.yaml": WEB.replace("name: web", "name: api") });
    const both = await run(["--workload", path.join(dir, "web.yaml"), "--workload", path.join(dir, "api.yaml"), "--format", "json"]);
    expect(both.code).toBe(0);
    const asConfigured = JSON.parse(both.out).scenarios[0];
    // Four pods of 250m: the two files' Deployments together, one plan.
    expect(asConfigured.nodes.reduce((sum: number, n: { pods: number }) => sum + n.pods, 0)).toBe(4);
    expect(await run(["--workload", path.join(dir, "web.yaml"), "--workload", path.join(dir, "web.yaml"), "--workload", "-", "--workload", "-"])).toEqual({
      code: 2,
      out: "",
      err: [
        "  - --workload: - (standard input) given twice; standard input can be read once",
        `  - --workload: ${path.join(dir, "web.yaml")} given twice; each file or folder is read once`,
        USAGE,
        "",
      ].join("\n"),
    });
    const missing = await run(["--workload", path.join(dir, "web.yaml"), "--workload", "/nonexistent/app.yaml"]);
    expect(missing.err).toBe(`  - --workload: got "/nonexistent/app.yaml"; no such file or folder: /nonexistent/app.yaml\n${USAGE}\n`);
  });

  it("reads relative paths from the folder npm was run in (INIT_CWD), and names the absolute path tried", async () => {
    const templates = path.join(ROOT, "templates");
    const planned = await run(["--workload", "demo", "--format", "json"], { INIT_CWD: templates, npm_package_json: path.join(ROOT, "package.json") });
    expect(planned.code).toBe(0);
    // The demo's two pods spread over two zones: one each.
    expect(JSON.parse(planned.out).scenarios[0].nodes.map((n: { pods: number }) => n.pods)).toEqual([1, 1]);
    expect(
      await run(["--workload", "nope", "--config", "../clusters/nope.yaml"], { INIT_CWD: templates, npm_package_json: path.join(ROOT, "package.json") }),
    ).toEqual({
      code: 2,
      out: "",
      err: [
        `  - --workload: got "nope"; no such file or folder: ${path.join(ROOT, "templates", "nope")}`,
        `  - --config: got "../clusters/nope.yaml"; no such file: ${path.join(ROOT, "clusters", "nope.yaml")}`,
        USAGE,
        "",
      ].join("\n"),
    });
    const header = await run(["--workload", "demo", "--config", "../clusters/dev.yaml"], {
      INIT_CWD: templates,
      npm_package_json: path.join(ROOT, "package.json"),
    });
    expect(header.out.split("\n")[0]).toBe(
      `Capacity and cost plan: ${path.join(templates, "demo")} on dev (eu-west-1), config: ${path.join(ROOT, "clusters", "dev.yaml")}`,
    );
  });

  it("reports workload and config problems together, each with its source, and exits 2", async () => {
    const dir = tmp({
      "cluster.yaml": "name: demo\nnodePools: [{ name: x, weight: 500 }]\n",
      "app.yaml": "kind: Deployment\nmetadata: { name: a }\nspec: { replicas: -1 }\n",
    });
    const result = await run(["--workload", path.join(dir, "app.yaml"), "--config", path.join(dir, "cluster.yaml")]);
    expect(result).toEqual({
      code: 2,
      out: "",
      err: [
        `${path.join(dir, "cluster.yaml")}: 1 problem`,
        "  - nodePools[0].weight: got 500; must be between 1 and 100",
        `${path.join(dir, "app.yaml")}: 2 problems`,
        `  - ${path.join(dir, "app.yaml")}: document 1 (Deployment a): spec.template.spec: got nothing; must be a pod spec (a mapping with containers)`,
        `  - ${path.join(dir, "app.yaml")}: document 1 (Deployment a): spec.replicas: got -1; must be a non-negative integer`,
        "",
      ].join("\n"),
    });
  });

  it("prints JSON in exactly the contract's shape", async () => {
    const web = path.join(tmp({ "web.yaml": WEB }), "web.yaml");
    const result = await run(["--workload", web, "--format", "json"]);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.out);
    expect(Object.keys(json)).toEqual(["prices", "scenarios", "base", "fargateWorkload", "daemonSets", "floorHourlyUsd", "warnings"]);
    expect(Object.keys(json.prices)).toEqual(["source", "region", "asOf"]);
    expect(Object.keys(json.base)).toEqual(["items", "hourlyUsd"]);
    for (const item of json.base.items) expect(Object.keys(item)).toEqual(["what", "hourlyUsd"]);
    for (const s of json.scenarios) {
      expect(Object.keys(s)).toEqual(["name", "nodes", "nodeCount", "hourlyUsd", "monthlyUsd", "unschedulable", "converged"]);
      expect(Object.keys(s.converged)).toEqual(["nodeCount", "hourlyUsd", "monthlyUsd", "nodes", "actions"]);
      // One c6g.medium holds both pods: nothing to consolidate.
      expect({ ...s.converged, nodes: s.converged.nodes.length }).toEqual({
        nodeCount: s.nodeCount,
        hourlyUsd: s.hourlyUsd,
        monthlyUsd: s.monthlyUsd,
        nodes: s.nodeCount,
        actions: [],
      });
      // Offline, a node the pool allows to be spot is spot, priced at the on-demand rate (an upper bound).
      for (const n of s.nodes)
        expect(Object.keys(n)).toEqual(
          n.capacityType === "spot"
            ? ["pool", "instanceType", "capacityType", "priceIsUpperBound", "arch", "pods", "hourlyUsd"]
            : ["pool", "instanceType", "capacityType", "arch", "pods", "hourlyUsd"],
        );
    }
    expect(json.warnings).toEqual([NO_SPOT_OFFLINE]);
  });

  it("prints Markdown with a Mermaid bar chart GitHub renders, and a table for terminals", async () => {
    // One c6g.medium holds both pods: 500m of 940m (53%), 1024 of 1392 MiB (74%), $0.034/h, $24.82/month.
    const web = path.join(tmp({ "web.yaml": WEB }), "web.yaml");
    const markdown = await run(["--workload", web, "--format", "markdown"]);
    expect(markdown.out).toContain(
      [
        "```mermaid",
        "xychart-beta",
        '    title "Node cost per month by scenario: as launched, then settled (USD, base costs not included)"',
        '    x-axis ["as-configured", "amd64-only", "multiarch", "on-demand-only"]',
        '    y-axis "USD per month" 0 --> 50',
        "    bar [24.82, 37.46, 24.82, 24.82]",
        // Each scenario is one node of the cheapest type that holds both pods: no cheaper node can replace it.
        "    bar [24.82, 37.46, 24.82, 24.82]",
        "```",
      ].join("\n"),
    );
    expect(markdown.out).toContain("| as-configured | default | c6g.medium | spot (on-demand price, upper bound) | arm64 | any | 1 | 2 | 53% | 74% | 0.0340 |");
    expect(markdown.out).toContain("This cluster costs $195.95/month before any workload, and $220.77/month with it (as configured).");
    const table = await run(["--workload", web]);
    expect(table.out).toMatch(/^scenario {8}\$\/hour {2}\$\/month {2}settled \$\/month {2}settled nodes {2}saving/m);
    expect(table.out).toContain(
      "as-configured   0.0340    24.82            24.82              1       -  53%     74%              0  1: 1 × c6g.medium (spot)",
    );
  });

  it('titles a plan read from standard input "standard input", not "-"', async () => {
    let out = "";
    const code = await runPlanCli(["--workload", "-"], { out: (t) => (out += t), err: () => undefined, env: {}, stdin: () => Buffer.from(WEB) });
    expect([code, out.split("\n")[0]]).toEqual([
      0,
      "Capacity and cost plan: standard input on karpenter-autonomous (us-east-1), config: embedded default cluster",
    ]);
  });

  it("prints a table's warnings on stderr, and keeps Markdown's and JSON's in the document only", async () => {
    const web = path.join(tmp({ "web.yaml": WEB }), "web.yaml");
    const table = await run(["--workload", web]);
    expect([table.code, table.err, table.out.includes("warning")]).toEqual([0, `warning: ${NO_SPOT_OFFLINE}\n`, false]);
    const markdown = await run(["--workload", web, "--format", "markdown"]);
    expect([markdown.err, markdown.out.endsWith(`### Warnings\n\n- ${NO_SPOT_OFFLINE}\n`)]).toEqual(["", true]);
    const json = await run(["--workload", web, "--format", "json"]);
    expect([json.err, JSON.parse(json.out).warnings]).toEqual(["", [NO_SPOT_OFFLINE]]);
  });

  it("plans for another region on request, and says the prices are us-east-1's", async () => {
    const { out, code } = await run(["--workload", path.join(tmp({ "web.yaml": WEB }), "web.yaml"), "--region", "eu-west-1", "--format", "json"]);
    expect(code).toBe(0);
    expect(JSON.parse(out).warnings).toEqual([
      "planned for eu-west-1, not the config's region us-east-1: the cluster's zones there are not known, so zone constraints are planned on stand-in zones",
      NO_SPOT_OFFLINE,
      "instance prices are us-east-1's (Karpenter v1.14.1 (aws/karpenter-provider-aws)); eu-west-1 differs: run with --live --region eu-west-1",
      "control plane, Fargate and NAT prices are us-east-1's list prices; eu-west-1 may differ",
    ]);
  });

  it("scripts/plan.js sets the exit code and prints no stack trace; its help goes to stdout", () => {
    const script = (...args: string[]) => {
      const { status, stdout, stderr } = spawnSync(process.execPath, [path.join(ROOT, "scripts/plan.js"), ...args], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, INIT_CWD: ROOT },
      });
      return [status, stdout, stderr] as const;
    };
    expect(script("--workload", "/nonexistent")).toEqual([2, "", `  - --workload: got "/nonexistent"; no such file or folder: /nonexistent\n${USAGE}\n`]);
    const [code, out, err] = script("--help");
    expect([code, out.split("\n")[0], flagsOf(out), err]).toEqual([0, USAGE, HELP_FLAGS, ""]);
  });
});
