import type { ClusterObjects } from "../cluster-state/cluster-objects";
import { KubeTargetError, resolveKubeTarget } from "../cluster-state/kube-target";
import { ClusterReadError } from "../cluster-state/kubectl-proxy";
import { readLiveCluster } from "../cluster-state/read-live-cluster";
import { readStateFile, STATE_STDIN } from "../cluster-state/read-state-file";
import { KUBECTL_GET_STATE } from "../cluster-state/state-kinds";
import { loadInstanceCatalogue } from "../instance-catalogue/instance-catalogue";
import { parseFlags } from "../planner/cli-flags";
import { pathProblems, userPath } from "../planner/cli-paths";
import { clusterStateOf } from "../planner/state/cluster-state";
import { settleState } from "../planner/state/settle-state";
import { InputError, InputErrors } from "../shared/input-error";
import { renderSavingsMarkdown } from "./render-savings-markdown";
import { renderSavingsTable } from "./render-savings-table";
import { savingsReport } from "./savings-report";

// `npm run savings -- [--kubeconfig <file>] [--context <name>] | --state <file|-> [--format ...] [--at <time>] [--spot-to-spot]`
// Exit codes: 0 a report was printed (or the help); 2 the input is wrong (every problem listed); 1 the cluster
// could not be read (refused credentials or permissions, an API that does not answer).

export const USAGE =
  "usage: npm run savings -- [--kubeconfig <file>] [--context <name>] | --state <file|-> [--format table|markdown|json] [--at <RFC 3339 time>] [--spot-to-spot]";

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
  --help              this text
Relative paths are read from the folder npm was run in. Exit codes: 0 a report, 2 a mistake in the input, 1 the
cluster could not be read.
`;

const FORMATS = ["table", "markdown", "json"] as const;
type Format = (typeof FORMATS)[number];

/** RFC 3339: a date, a time and an offset or Z. */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export interface SavingsArgs {
  /** A state file, or undefined to read the cluster the kubeconfig names. */
  readonly state?: string;
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly format: Format;
  readonly at: Date;
  readonly spotToSpot: boolean;
}

type Parsed = SavingsArgs | { readonly problems: readonly string[] } | { readonly help: true };

export function parseSavingsArgs(argv: readonly string[], now: Date, env: NodeJS.ProcessEnv): Parsed {
  if (argv.includes("--help") || argv.includes("-h")) return { help: true };
  const flags = parseFlags(argv, {
    valueFlags: ["--state", "--kubeconfig", "--context", "--format", "--at"],
    switches: { "--spot-to-spot": "; leave it out for the gate's default (off)" },
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
  const at = atText === undefined ? now : new Date(atText);
  if (atText !== undefined && (!RFC_3339.test(atText) || Number.isNaN(at.getTime()))) {
    problems.push(`--at: got ${JSON.stringify(atText)}; must be an RFC 3339 time such as 2026-11-26T14:00:00Z`);
  }
  const resolved = state === undefined || state === "" || state === STATE_STDIN ? state : userPath(state, env);
  if (resolved !== undefined && resolved !== "" && resolved !== STATE_STDIN) problems.push(...pathProblems("--state", state as string, resolved));
  if (problems.length > 0) return { problems };
  const kubeconfig = values["--kubeconfig"] === undefined ? undefined : userPath(values["--kubeconfig"], env);
  return { state: resolved, kubeconfig, context: values["--context"], format: format as Format, at, spotToSpot: flags.switches.has("--spot-to-spot") };
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
}

/** The cluster's objects: a saved state, or the cluster the kubeconfig names, read through kubectl. */
async function readObjects(args: SavingsArgs, io: SavingsIo): Promise<ClusterObjects> {
  if (args.state !== undefined) return readStateFile(args.state, io.stdin);
  const target = await resolveKubeTarget({ kubeconfig: args.kubeconfig, context: args.context }, io.env, io.kubectl);
  try {
    return await readLiveCluster(target, { kubectl: io.kubectl, progress: io.progress?.update });
  } finally {
    io.progress?.done();
  }
}

/** Runs the report; returns the exit code. Mistakes in the input print one message each, no stack trace. */
export async function runSavingsCli(argv: readonly string[], io: SavingsIo): Promise<number> {
  const args = parseSavingsArgs(argv, io.now?.() ?? new Date(), io.env);
  if ("help" in args) {
    io.out(HELP);
    return 0;
  }
  if ("problems" in args) {
    io.err(`${args.problems.map((p) => `  - ${p}`).join("\n")}\n${USAGE}`);
    return 2;
  }
  try {
    const objects = await readObjects(args, io);
    const catalogue = loadInstanceCatalogue();
    const state = clusterStateOf(objects, catalogue, args.at);
    const result = settleState(state, { catalogue, at: args.at, spotToSpot: args.spotToSpot });
    const report = savingsReport({ state, result, catalogue, at: args.at });
    if (args.format === "json") io.out(`${JSON.stringify(report, null, 2)}\n`);
    else if (args.format === "markdown") io.out(renderSavingsMarkdown(report));
    else {
      io.out(renderSavingsTable(report));
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
    if (error instanceof ClusterReadError) {
      io.err(`npm run savings: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
