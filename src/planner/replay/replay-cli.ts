import { exceedsGoDuration, goDurationNanos } from "../../provisioners/go-duration";
import { CONSOLIDATION_POLICIES } from "../../provisioners/rules/crd-limits";
import { InputError, InputErrors } from "../../shared/input-error";
import { parseRfc3339 } from "../../shared/rfc3339";
import { decodeUtf8, readAtMost, readFailure } from "../../shared/untrusted-file";
import { PrometheusApi, PrometheusError, type PrometheusTarget } from "../../usage/prometheus-api";
import { prometheusTarget } from "../../usage/usage-flags";
import type { CliIo } from "../cli";
import { argsToRun, parseFlags } from "../cli-flags";
import { pathProblems, userPath } from "../cli-paths";
import type { ConsolidationPolicy } from "../model";
import { STDIN } from "../workload/read-workload";
import { makeReplay, type WhatIf } from "./make-replay";
import { renderReplayMarkdown } from "./render-replay-markdown";
import { renderReplayTable } from "./render-replay-table";
import { replayJson } from "./replay-json";
import { DEFAULT_BATCH_IDLE_SECONDS, DEFAULT_BATCH_MAX_SECONDS, DEFAULT_NODE_READY_SECONDS } from "./replay-timing";
import { MAX_CURVE_SECONDS } from "./replica-curve";
import { type ReplicaWindow, replicasFromPrometheus } from "./replicas-from-prometheus";

// `npm run replay -- --workload <file|dir|-> --replicas curve.csv [--config F] [--format table|markdown|json]`
// Exit codes: 0 the replay was printed (or the help); 2 the input is wrong (every problem listed).

export const REPLAY_USAGE =
  "usage: npm run replay -- --workload <file|dir|-> [--workload ...] (--replicas <curve.csv> | --replicas-from <prometheus url> --from <RFC 3339> --to <RFC 3339>) [--config cluster.yaml] [--format table|markdown|json] [--node-ready 60s] [--consolidate-after 0s,1m,10m] [--policy WhenEmpty,...] [--start <RFC 3339>]";

export const REPLAY_HELP = `${REPLAY_USAGE}

A day in the life: replicas over time played through Karpenter 1.14.1's provisioning and consolidation, and
what the period costs beside what a static plan would have claimed (docs/planner.md, "Replay").
  --workload <file|dir|->      the workload, as npm run plan reads it (give it again for more)
  --replicas <curve.csv>       rows time,workload,replicas: time in seconds from the start or RFC 3339, workload
                               namespace/Kind/name; a workload's replicas hold until its next row; workloads the
                               curve does not name keep their manifest's replicas
  --replicas-from <url>        read the curve from this Prometheus instead: kube-state-metrics' replicas of each
                               Deployment and StatefulSet (an HPA's desired replicas where neither is scraped),
                               credentials as npm run savings --prometheus takes them (its --help)
  --from <RFC 3339>, --to <RFC 3339>  the period to read (at most 31 days)
  --step <duration>            the curve's resolution read from Prometheus: 60s by default
  --prometheus-ca <file>       the CA that signed the server's certificate, when it is not a public one
  --config <file>              the cluster file; default CLUSTER_CONFIG, else the embedded default cluster
  --format <format>            table (the default), markdown (with a Mermaid chart) or json
  --node-ready <duration>      NodeClaim to ready node: 60s by default (an assumption; AMIs differ), up to 15m
  --consolidate-after <list>   replay once per value, every NodePool's consolidateAfter set to it (0s,1m,10m,Never)
  --policy <list>              replay once per consolidation policy (WhenEmpty, WhenEmptyOrUnderutilized, Balanced)
  --start <RFC 3339>           the instant t = 0 stands for, for budgets with a schedule (curves in seconds only);
                               default 1970-01-01T00:00:00Z
  --help                       this text
Exit codes: 0 a replay, 2 a mistake in the input, 1 Prometheus could not be read.
`;

const FORMATS = ["table", "markdown", "json"] as const;
type Format = (typeof FORMATS)[number];
const VALUE_FLAGS = [
  "--workload",
  "--replicas",
  "--replicas-from",
  "--from",
  "--to",
  "--step",
  "--prometheus-ca",
  "--config",
  "--format",
  "--node-ready",
  "--consolidate-after",
  "--policy",
  "--start",
];
/** Kubelet registration: a NodeClaim not registered within 15 minutes is deleted (liveness.go registrationTTL). */
const MAX_NODE_READY_SECONDS = 15 * 60;
/** A curve of a month at one-second resolution for a few workloads: 64 MiB; beyond, a file is refused unread. */
const MAX_CURVE_BYTES = 64 * 1024 * 1024;

/** Where the curve is read from Prometheus, and which period. */
export interface ReplicasFrom {
  readonly target: PrometheusTarget;
  readonly source: string;
  readonly window: ReplicaWindow;
}

export interface ReplayArgs {
  readonly workload: readonly string[];
  /** The curve's file, or where in Prometheus it is read. */
  readonly replicas: string | ReplicasFrom;
  readonly config?: string;
  readonly format: Format;
  readonly nodeReadySeconds: number;
  readonly whatIfs: readonly WhatIf[];
  readonly start?: Date;
}

type Parsed = ReplayArgs | { readonly problems: readonly string[] } | { readonly help: true };

/** Seconds of a Go duration ("60s", "1m30s"), or undefined where Go would not read it. */
function durationSeconds(text: string): number | undefined {
  const nanos = exceedsGoDuration(text) ? undefined : goDurationNanos(text);
  return nanos === undefined || nanos < 0n ? undefined : Number(nanos) / 1e9;
}

function listOf(text: string | undefined): string[] | undefined {
  return text === undefined ? undefined : text.split(",").map((v) => v.trim());
}

/** The what-ifs the flags ask for: every consolidateAfter value with every policy; the config as it is when neither is given. */
function whatIfsOf(values: Readonly<Record<string, string>>, problems: string[]): WhatIf[] {
  const after = listOf(values["--consolidate-after"]);
  const policies = listOf(values["--policy"]);
  const afters: { text: string; seconds: number }[] = [];
  for (const text of after ?? []) {
    const seconds = text === "Never" ? 0 : durationSeconds(text);
    if (seconds === undefined)
      problems.push(
        `--consolidate-after: got ${JSON.stringify(text)}; each value is a duration as a NodePool takes it (0s, 30s, 5m, 1h) or Never, comma-separated`,
      );
    else if (afters.some((a) => a.text === text)) problems.push(`--consolidate-after: ${text} given twice`);
    else afters.push({ text, seconds });
  }
  const allowed = CONSOLIDATION_POLICIES as readonly string[];
  for (const policy of policies ?? []) {
    if (!allowed.includes(policy)) problems.push(`--policy: got ${JSON.stringify(policy)}; allowed: ${allowed.join(", ")}`);
  }
  if (policies !== undefined && new Set(policies).size !== policies.length) problems.push("--policy: a policy is given twice");
  const policyList: (ConsolidationPolicy | undefined)[] = policies === undefined ? [undefined] : (policies as ConsolidationPolicy[]);
  const afterList: ({ text: string; seconds: number } | undefined)[] = after === undefined ? [undefined] : afters;
  return afterList.flatMap((a) =>
    policyList.map((policy) => ({
      ...(a === undefined ? {} : { consolidateAfter: a.text, consolidateAfterSeconds: a.seconds }),
      ...(policy === undefined ? {} : { policy }),
    })),
  );
}

/** Every flag problem at once, or the parsed flags, or a request for help. Paths are checked by runReplayCli. */
export function parseReplayArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Parsed {
  if (argv.includes("--help") || argv.includes("-h")) return { help: true };
  const flags = parseFlags(argv, { valueFlags: VALUE_FLAGS, repeatable: ["--workload"], switches: {} });
  const problems = [...flags.problems];
  const { values } = flags;
  const workload = flags.lists["--workload"] ?? [];
  if (workload.length === 0 && !problems.some((p) => p.startsWith("--workload")))
    problems.push("--workload: required (a Kubernetes YAML file or a folder of them)");
  if (workload.includes("")) problems.push('--workload: got ""; must name a Kubernetes YAML file or a folder of them');
  if (workload.filter((w) => w === STDIN).length > 1) problems.push("--workload: - (standard input) given twice; standard input can be read once");
  const replicasFile = values["--replicas"];
  const replicasFrom = replicasFromFlags(values, env, problems);
  if (replicasFile !== undefined && values["--replicas-from"] !== undefined)
    problems.push("--replicas, --replicas-from: give one: a curve file, or Prometheus to read it from");
  else if (replicasFile === undefined && values["--replicas-from"] === undefined && !problems.some((p) => p.startsWith("--replicas")))
    problems.push("--replicas: required (a CSV of time,workload,replicas), or --replicas-from <prometheus url>");
  if (replicasFile === "") problems.push('--replicas: got ""; must name a CSV file of time,workload,replicas');
  if (values["--replicas-from"] !== undefined && values["--start"] !== undefined) problems.push("--start: a curve read from Prometheus starts at --from");
  if (values["--config"] === "") problems.push('--config: got ""; must name a cluster file (YAML or JSON)');
  const format = values["--format"] ?? "table";
  if (!(FORMATS as readonly string[]).includes(format)) problems.push(`--format: got ${JSON.stringify(format)}; allowed: ${FORMATS.join(", ")}`);
  const readyText = values["--node-ready"];
  const nodeReadySeconds = readyText === undefined ? DEFAULT_NODE_READY_SECONDS : durationSeconds(readyText);
  if (nodeReadySeconds === undefined || nodeReadySeconds < 1 || nodeReadySeconds > MAX_NODE_READY_SECONDS)
    problems.push(
      `--node-ready: got ${JSON.stringify(readyText)}; must be a duration from 1s to 15m (45s, 90s, 2m): a node that has not registered in 15 minutes is deleted by Karpenter`,
    );
  const whatIfs = whatIfsOf(values, problems);
  const startText = values["--start"];
  const start = startText === undefined ? undefined : parseRfc3339(startText);
  if (startText !== undefined && start === undefined)
    problems.push(`--start: got ${JSON.stringify(startText)}; must be an RFC 3339 time (2026-11-30T00:00:00Z)`);
  if (problems.length > 0) return { problems };
  return {
    workload,
    replicas: replicasFrom ?? (replicasFile as string),
    config: values["--config"],
    format: format as Format,
    nodeReadySeconds: nodeReadySeconds as number,
    whatIfs,
    start,
  };
}

/** A curve's period in Prometheus: --from and --to (RFC 3339, at most 31 days apart) and --step (60s). */
function replicasFromFlags(values: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv, problems: string[]): ReplicasFrom | undefined {
  const url = values["--replicas-from"];
  const needsUrl = ["--from", "--to", "--step"].filter((f) => values[f] !== undefined);
  if (url === undefined) {
    if (needsUrl.length > 0) problems.push(`${needsUrl.join(", ")}: ${needsUrl.length === 1 ? "works" : "work"} with --replicas-from <url> only`);
    if (values["--prometheus-ca"] !== undefined) problems.push("--prometheus-ca: works with --replicas-from <url> only");
    return undefined;
  }
  const server = prometheusTarget("--replicas-from", url, values["--prometheus-ca"], env, problems);
  const time = (flag: "--from" | "--to") => {
    const text = values[flag];
    if (text === undefined) {
      problems.push(`${flag}: required with --replicas-from (an RFC 3339 time, such as 2026-11-28T00:00:00Z)`);
      return undefined;
    }
    const at = parseRfc3339(text);
    if (at === undefined) {
      problems.push(`${flag}: got ${JSON.stringify(text)}; must be an RFC 3339 time (2026-11-28T00:00:00Z)`);
      return undefined;
    }
    return at;
  };
  const from = time("--from");
  const to = time("--to");
  if (from !== undefined && to !== undefined && !(to > from)) problems.push(`--to: got ${values["--to"]}; must be after --from (${values["--from"]})`);
  if (from !== undefined && to !== undefined && to.getTime() - from.getTime() > MAX_CURVE_SECONDS * 1000)
    problems.push(`--from, --to: ${((to.getTime() - from.getTime()) / 86_400_000).toFixed(1)} days apart; at most 31 days are replayed`);
  const stepText = values["--step"] ?? "60s";
  const step = durationSeconds(stepText);
  if (step === undefined || step < 1 || step > 3600 || !Number.isInteger(step))
    problems.push(`--step: got ${JSON.stringify(stepText)}; must be whole seconds from 1s to 1h (15s, 60s, 5m)`);
  if (server === undefined || from === undefined || to === undefined || step === undefined) return undefined;
  return { target: server.target, source: server.source, window: { from, to, stepSeconds: step } };
}

/** The curve file's text, or an InputError naming the flag. */
function readCurve(typed: string, file: string): string {
  let bytes: Buffer;
  try {
    bytes = readAtMost(file, MAX_CURVE_BYTES);
  } catch (error) {
    const reason = readFailure(error);
    if (reason === undefined) throw error;
    throw new InputError("--replicas", [`got ${JSON.stringify(typed)}; cannot be read (${reason}): ${file}`]);
  }
  if (bytes.length > MAX_CURVE_BYTES)
    throw new InputError(file, [`is over ${MAX_CURVE_BYTES / 1024 / 1024} MiB; a curve of a month at one-second resolution for a few workloads fits`]);
  const decoded = decodeUtf8(bytes);
  if (!("text" in decoded)) throw new InputError(file, [decoded.problem]);
  return decoded.text;
}

export async function runReplayCli(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseReplayArgs(argv, io.env);
  const toRun = argsToRun(parsed, io, { help: REPLAY_HELP, usage: REPLAY_USAGE });
  if ("exit" in toRun) return toRun.exit;
  const { args } = toRun;
  const workload = args.workload.map((w) => (w === STDIN ? STDIN : userPath(w, io.env)));
  const config = args.config === undefined ? undefined : userPath(args.config, io.env);
  const curveFile = typeof args.replicas === "string" ? userPath(args.replicas, io.env) : undefined;
  const problems = [
    ...workload.flatMap((w, i) => (w === STDIN ? [] : pathProblems("--workload", args.workload[i], w))),
    ...(config === undefined ? [] : pathProblems("--config", args.config as string, config)),
    ...(curveFile === undefined ? [] : pathProblems("--replicas", args.replicas as string, curveFile)),
  ];
  if (problems.length > 0) {
    io.err(`${problems.map((p) => `  - ${p}`).join("\n")}\n${REPLAY_USAGE}`);
    return 2;
  }
  try {
    const from = args.replicas;
    const curve =
      typeof from === "string"
        ? { text: readCurve(from, curveFile as string), source: curveFile as string }
        : { read: await replicasFromPrometheus(new PrometheusApi(from.target), from.window), source: from.source };
    const replay = makeReplay({
      workload,
      config,
      env: io.env,
      stdin: io.stdin,
      curve,
      timing: { batchIdleSeconds: DEFAULT_BATCH_IDLE_SECONDS, batchMaxSeconds: DEFAULT_BATCH_MAX_SECONDS, nodeReadySeconds: args.nodeReadySeconds },
      whatIfs: args.whatIfs,
      start: args.start,
    });
    if (args.format === "json") io.out(`${JSON.stringify(replayJson(replay), null, 2)}\n`);
    else if (args.format === "markdown") io.out(renderReplayMarkdown(replay));
    else {
      io.out(renderReplayTable(replay));
      for (const warning of replay.warnings) io.err(`warning: ${warning}`);
    }
    return 0;
  } catch (error) {
    if (error instanceof InputErrors || error instanceof InputError) {
      io.err(error.message);
      return 2;
    }
    if (error instanceof PrometheusError) {
      io.err(`npm run replay: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
