import * as fs from "node:fs";
import * as path from "node:path";
import type { ClusterObjects } from "../cluster-state/cluster-objects";
import { KubeTargetError, resolveKubeTarget } from "../cluster-state/kube-target";
import { ClusterReadError } from "../cluster-state/kubectl-proxy";
import { readLiveCluster } from "../cluster-state/read-live-cluster";
import { MAX_STATE_BYTES, readStateFile, STATE_STDIN } from "../cluster-state/read-state-file";
import { KUBECTL_GET_STATE } from "../cluster-state/state-kinds";
import { type InstanceCatalogue, loadInstanceCatalogue } from "../instance-catalogue/instance-catalogue";
import { argsToRun, parseFlags } from "../planner/cli-flags";
import { pathProblems, userPath } from "../planner/cli-paths";
import { regionOfNodes } from "../planner/state/cluster-state";
import { InputError, InputErrors } from "../shared/input-error";
import { parseRfc3339 } from "../shared/rfc3339";
import { readAtMost, readFailure } from "../shared/untrusted-file";
import { PrometheusApi, PrometheusError } from "../usage/prometheus-api";
import { readUsage } from "../usage/read-usage";
import { USAGE_FLAGS, USAGE_HELP, type UsageOptions, usageOptions } from "../usage/usage-flags";
import { workloadContainers } from "../usage/workload-containers";
import { compareReports } from "./compare-snapshots";
import { makeSavingsReport } from "./make-savings-report";
import { renderSavingsMarkdown } from "./render-savings-markdown";
import { renderSavingsTable } from "./render-savings-table";
import { isSnapshot, objectsOfSnapshot, SNAPSHOT_KIND, type Snapshot, snapshotOf } from "./snapshot";

// `npm run savings -- [--kubeconfig <file>] [--context <name>] | --state <file|-> [--format ...] [--at <time>] [--spot-to-spot] [--live]`
// Exit codes: 0 a report was printed (or the help); 2 the input is wrong (every problem listed); 1 the cluster
// could not be read (refused credentials or permissions, an API that does not answer), or live prices failed.

export const USAGE =
  "usage: npm run savings -- [--kubeconfig <file>] [--context <name>] | --state <file|-> [--format table|markdown|json] [--at <RFC 3339 time>] [--spot-to-spot] [--live] [--save <file>] [--compare <file>] [--prometheus <url> [--usage-window 14d]]";

export const HELP = `${USAGE}

What a running cluster costs now, where Karpenter's consolidation settles it, and why each remaining node stays
(docs/operations.md, Measure the savings). The cluster is read through kubectl (read-only: get and list), as
your kubeconfig authenticates, unless --state gives a saved state.
  --kubeconfig <file> the kubeconfig to read the cluster with; default $KUBECONFIG, then ~/.kube/config
  --context <name>    the kubeconfig's context; default its current one
  --state <file|->    a saved state instead: the objects as kubectl prints them, JSON or YAML, or - for standard input:
                      ${KUBECTL_GET_STATE}
                      (leave out the karpenter kinds on a cluster without Karpenter: kubectl refuses unknown kinds)
  --format <format>   table (the default; warnings on stderr), markdown or json (warnings in the document)
  --at <time>         when disruption budgets' schedules are evaluated, such as 2026-11-26T14:00:00Z; default now
  --spot-to-spot      as with Karpenter's SpotToSpotConsolidation feature gate on (off by default)
  --live              current prices for the cluster's region from the AWS APIs, spot included (needs AWS
                      credentials with ec2:DescribeInstanceTypes, ec2:DescribeSpotPriceHistory, pricing:GetProducts);
                      without it the shipped us-east-1 on-demand prices are used and the spot moves are left out
  --save <file>       also write a snapshot: what the report read (cut to what it needs), the prices, the report
  --compare <file>    compare with a snapshot --save wrote: nodes added, removed and replaced, the cost, per
                      namespace, and what the snapshot predicted against what runs now
${USAGE_HELP}
  --help              this text
Relative paths are read from the folder npm was run in. Exit codes: 0 a report, 2 a mistake in the input, 1 the
cluster or Prometheus could not be read, or live prices failed.
`;

const FORMATS = ["table", "markdown", "json"] as const;
type Format = (typeof FORMATS)[number];

/** RFC 3339: a date, a time and an offset or Z. */

export interface SavingsArgs {
  /** A state file, or undefined to read the cluster the kubeconfig names. */
  readonly state?: string;
  /** Where to write a snapshot of what the report was made from and what it said. */
  readonly save?: string;
  /** A snapshot to compare with. */
  readonly compare?: string;
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly format: Format;
  readonly at: Date;
  readonly spotToSpot: boolean;
  readonly live: boolean;
  /** Where usage is read from, and how requests are worked out from it (--prometheus). */
  readonly usage?: UsageOptions;
}

type Parsed = SavingsArgs | { readonly problems: readonly string[] } | { readonly help: true };

export function parseSavingsArgs(argv: readonly string[], now: Date, env: NodeJS.ProcessEnv): Parsed {
  if (argv.includes("--help") || argv.includes("-h")) return { help: true };
  const flags = parseFlags(argv, {
    valueFlags: ["--state", "--kubeconfig", "--context", "--format", "--at", "--save", "--compare", ...USAGE_FLAGS],
    switches: { "--spot-to-spot": "; leave it out for the gate's default (off)", "--live": "; leave it out for the shipped prices" },
  });
  const problems = [...flags.problems];
  const { values } = flags;
  const state = values["--state"];
  if (state !== undefined && (values["--kubeconfig"] !== undefined || values["--context"] !== undefined)) {
    problems.push("--state: reads a saved state, and --kubeconfig and --context read a running cluster: give one or the other");
  }
  if (state === "") problems.push('--state: got ""; must name a state file, or - for standard input');
  if (values["--kubeconfig"] === "") problems.push('--kubeconfig: got ""; must name a kubeconfig file');
  if (values["--context"] === "") problems.push('--context: got ""; must name a context of the kubeconfig');
  const format = values["--format"] ?? "table";
  if (!(FORMATS as readonly string[]).includes(format)) problems.push(`--format: got ${JSON.stringify(format)}; allowed: ${FORMATS.join(", ")}`);
  const atText = values["--at"];
  const at = atText === undefined ? now : (parseRfc3339(atText) ?? new Date(Number.NaN));
  if (atText !== undefined && Number.isNaN(at.getTime())) {
    problems.push(`--at: got ${JSON.stringify(atText)}; must be an RFC 3339 time such as 2026-11-26T14:00:00Z`);
  }
  const resolved = state === undefined || state === "" || state === STATE_STDIN ? state : userPath(state, env);
  if (resolved !== undefined && resolved !== "" && resolved !== STATE_STDIN) problems.push(...pathProblems("--state", state as string, resolved));
  const save = values["--save"];
  if (save !== undefined && (save === "" || save === STATE_STDIN)) problems.push(`--save: got ${JSON.stringify(save)}; must name a file to write`);
  else if (save !== undefined) {
    const folder = path.dirname(userPath(save, env));
    if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory())
      problems.push(`--save: got ${JSON.stringify(save)}; its folder ${folder} does not exist`);
  }
  const compare = values["--compare"];
  if (compare === "") problems.push('--compare: got ""; must name a snapshot written by --save');
  else if (compare !== undefined) problems.push(...pathProblems("--compare", compare, userPath(compare, env)));
  const usage = usageOptions(values, env, problems);
  if (problems.length > 0) return { problems };
  const kubeconfig = values["--kubeconfig"] === undefined ? undefined : userPath(values["--kubeconfig"], env);
  return {
    state: resolved,
    kubeconfig,
    context: values["--context"],
    save: values["--save"] === undefined ? undefined : userPath(values["--save"], env),
    compare: compare === undefined ? undefined : userPath(compare, env),
    format: format as Format,
    at,
    spotToSpot: flags.switches.has("--spot-to-spot"),
    live: flags.switches.has("--live"),
    usage,
  };
}

export interface SavingsIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin?: () => Buffer;
  /** The time "now" stands for; the clock when not given. */
  readonly now?: () => Date;
  /** Where a progress line goes while a cluster is read (stderr), then `done` when reading is over; none when not given. */
  readonly progress?: { readonly update: (kind: string, count: number) => void; readonly done: () => void };
  /** The kubectl to run; "kubectl" on PATH when not given. */
  readonly kubectl?: string;
  /** A line for each stage of a long report (settling, the moves); none when not given. */
  readonly stage?: (text: string) => void;
  /** --live's catalogue for a region; the AWS APIs with the environment's credentials when not given. */
  readonly liveCatalogue?: (region: string) => Promise<InstanceCatalogue>;
}

/** --live: the region's current prices, for the region the nodes say they run in. */
async function liveCatalogueFor(objects: ClusterObjects, io: SavingsIo): Promise<InstanceCatalogue> {
  const region = regionOfNodes(objects);
  if (region === undefined) {
    throw new InputError(objects.source, ["--live: no node carries topology.kubernetes.io/region, so the region to price is not known"]);
  }
  if (io.liveCatalogue !== undefined) return io.liveCatalogue(region);
  const { loadLiveCatalogue } = await import("../planner/live/live-catalogue");
  return loadLiveCatalogue(region, { env: io.env, progress: io.err, purpose: "savings" });
}

/** A snapshot --save wrote; anything else is the user's mistake. */
function readSnapshot(file: string): Snapshot {
  const refuse = (problem: string) => new InputError(`--compare ${file}`, [problem]);
  let text: string;
  try {
    const bytes = readAtMost(file, MAX_STATE_BYTES);
    if (bytes.length > MAX_STATE_BYTES) throw refuse(`${file}: larger than 512 MiB; a snapshot --save wrote is far smaller`);
    text = bytes.toString("utf8");
  } catch (error) {
    const reason = readFailure(error);
    if (reason === undefined) throw error;
    throw refuse(`${file}: cannot be read (${reason})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw refuse(`${file}: not JSON; --compare takes a snapshot written by --save`);
  }
  if (!isSnapshot(value)) throw refuse(`${file}: not a snapshot written by --save (no kind: ${SNAPSHOT_KIND})`);
  return value;
}

/** Writes beside the target and renames over it: a reader never finds half a snapshot. */
function writeAtomically(file: string, text: string): void {
  const staging = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(staging, text, { mode: 0o600 });
  fs.renameSync(staging, file);
}

/** The cluster's objects: a saved state, or the cluster the kubeconfig names, read through kubectl. */
async function readObjects(args: SavingsArgs, io: SavingsIo): Promise<ClusterObjects> {
  if (args.state !== undefined)
    return readStateFile(args.state, { stdin: io.stdin, other: (document, name) => (isSnapshot(document) ? objectsOfSnapshot(document, name) : undefined) });
  const target = await resolveKubeTarget({ kubeconfig: args.kubeconfig, context: args.context }, io.env, io.kubectl);
  try {
    return await readLiveCluster(target, { kubectl: io.kubectl, progress: io.progress?.update });
  } finally {
    io.progress?.done();
  }
}

/** What the cluster's workloads used, read from Prometheus. */
async function usageOf(objects: ClusterObjects, options: UsageOptions, at: Date, io: SavingsIo) {
  const workloads = workloadContainers(objects.byKind.Pod);
  io.stage?.(`reading ${workloads.length} workloads' usage from ${options.source}`);
  const usage = await readUsage(new PrometheusApi(options.target), workloads, options.method, at);
  return { workloads, usage, method: options.method, source: options.source };
}

/** Runs the report; returns the exit code. Mistakes in the input print one message each, no stack trace. */
export async function runSavingsCli(argv: readonly string[], io: SavingsIo): Promise<number> {
  const parsed = parseSavingsArgs(argv, io.now?.() ?? new Date(), io.env);
  const toRun = argsToRun(parsed, io, { help: HELP, usage: USAGE });
  if ("exit" in toRun) return toRun.exit;
  const { args } = toRun;
  try {
    const objects = await readObjects(args, io);
    const catalogue = args.live ? await liveCatalogueFor(objects, io) : loadInstanceCatalogue();
    const usage = args.usage === undefined ? undefined : await usageOf(objects, args.usage, args.at, io);
    const report = makeSavingsReport(objects, { catalogue, at: args.at, spotToSpot: args.spotToSpot, progress: io.stage, usage });
    const change = args.compare === undefined ? undefined : compareReports(readSnapshot(args.compare).report, report);
    if (args.save !== undefined) writeAtomically(args.save, `${JSON.stringify(snapshotOf(objects, catalogue, report), null, 2)}\n`);
    if (args.format === "json") io.out(`${JSON.stringify(change === undefined ? report : { ...report, change }, null, 2)}\n`);
    else if (args.format === "markdown") io.out(renderSavingsMarkdown(report, change));
    else {
      io.out(renderSavingsTable(report, change));
      for (const warning of report.warnings) io.err(`warning: ${warning}`);
    }
    return 0;
  } catch (error) {
    if (error instanceof InputError || error instanceof InputErrors) {
      io.err(error.message);
      return 2;
    }
    if (error instanceof KubeTargetError) {
      io.err(`npm run savings: ${error.message}`);
      return 2;
    }
    if (error instanceof ClusterReadError || error instanceof PrometheusError) {
      io.err(`npm run savings: ${error.message}`);
      return 1;
    }
    if (error instanceof Error && error.name === "LiveDataError") {
      io.err(`npm run savings: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
