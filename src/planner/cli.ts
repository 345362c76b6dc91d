import { AWS_REGION_EXPECTED, isAwsRegion } from "../shared/aws-regions";
import { InputErrors } from "../shared/input-error";
import { PrometheusError } from "../usage/prometheus-api";
import { USAGE_FLAGS, type UsageOptions, usageOptions } from "../usage/usage-flags";
import { argsToRun, parseFlags } from "./cli-flags";
import { pathProblems, userPath } from "./cli-paths";
import { makePlan } from "./make-plan";
import type { Plan } from "./plan/plan-types";
import { renderPlanMarkdown } from "./render/render-markdown";
import { renderPlanTable, tableWarnings } from "./render/render-table";
import { STDIN } from "./workload/read-workload";

// `npm run plan -- --workload <file|dir|-> [--config cluster.yaml] [--region r] [--format table|markdown|json] [--live]`
// Exit codes: 0 a plan was printed (or the help); 2 the input is wrong (every problem listed); 1 the live data failed.

export const USAGE =
  "usage: npm run plan -- --workload <file|dir|-> [--workload ...] [--config cluster.yaml] [--region <region>] [--format table|markdown|json] [--live] [--prometheus <url>]";

export const HELP = `${USAGE}

What the cluster's NodePools would launch for a workload, and what it costs (docs/planner.md).
  --workload <file|dir|->  Kubernetes YAML or JSON: a file (multi-document), a folder of them, or - for
                           standard input (helm template ... | npm run plan -- --workload -); required; give it
                           again for more (as kubectl apply -f a -f b), planned together as one workload
  --config <file>          the cluster file; default CLUSTER_CONFIG, else the embedded default cluster
  --region <region>        plan for another region than the config's, such as eu-west-1
  --format <format>        table (the default; warnings on stderr), markdown or json (warnings in the document)
  --live                   current prices from the AWS APIs, spot included (needs AWS credentials)
  --prometheus <url>       add a rightsized scenario: each workload at the requests its usage in this Prometheus
                           recommends (matched to the running cluster's pods by namespace, kind and name); the
                           usage flags and credentials are those of npm run savings (its --help)
  --help                   this text
Relative paths are read from the folder npm was run in. Exit codes: 0 a plan, 2 a mistake in the input, 1 live data
or Prometheus could not be read.
`;

const FORMATS = ["table", "markdown", "json"] as const;
type Format = (typeof FORMATS)[number];
const VALUE_FLAGS = ["--workload", "--config", "--region", "--format", ...USAGE_FLAGS];

export interface PlanArgs {
  /** The workload's files, folders or standard input, in the order given: planned as one. */
  readonly workload: readonly string[];
  readonly config?: string;
  readonly region?: string;
  readonly format: Format;
  readonly live: boolean;
  /** Where usage is read from, for the rightsized scenario (--prometheus). */
  readonly usage?: UsageOptions;
}

type Parsed = PlanArgs | { readonly problems: readonly string[] } | { readonly help: true };

/** Every flag problem at once, or the parsed flags, or a request for help. Paths are checked by runPlanCli. */
export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Parsed {
  if (argv.includes("--help") || argv.includes("-h")) return { help: true };
  const flags = parseFlags(argv, { valueFlags: VALUE_FLAGS, repeatable: ["--workload"], switches: { "--live": "; leave it out to plan offline" } });
  const problems = [...flags.problems];
  const { values } = flags;
  const live = flags.switches.has("--live");
  const workload = flags.lists["--workload"] ?? [];
  if (workload.length === 0 && !problems.some((p) => p.startsWith("--workload")))
    problems.push("--workload: required (a Kubernetes YAML file or a folder of them)");
  // An empty path would resolve to the current folder and plan whatever YAML it holds.
  if (workload.includes("")) problems.push('--workload: got ""; must name a Kubernetes YAML file or a folder of them');
  if (workload.filter((w) => w === STDIN).length > 1) problems.push("--workload: - (standard input) given twice; standard input can be read once");
  const repeated = workload.filter((w, i) => w !== STDIN && workload.indexOf(w) !== i);
  if (repeated.length > 0) problems.push(`--workload: ${[...new Set(repeated)].join(", ")} given twice; each file or folder is read once`);
  if (values["--config"] === "") problems.push('--config: got ""; must name a cluster file (YAML or JSON)');
  const format = values["--format"] ?? "table";
  if (!(FORMATS as readonly string[]).includes(format)) problems.push(`--format: got ${JSON.stringify(format)}; allowed: ${FORMATS.join(", ")}`);
  const region = values["--region"];
  if (region !== undefined && !isAwsRegion(region)) problems.push(`--region: got ${JSON.stringify(region)}; ${AWS_REGION_EXPECTED}`);
  const usage = usageOptions(values, env, problems);
  if (problems.length > 0) return { problems };
  return { workload, config: values["--config"], region, format: format as Format, live, usage };
}

/** The flags, with their paths resolved as the user meant them (see cli-paths.ts), or every problem. */
function checkedArgs(argv: readonly string[], env: NodeJS.ProcessEnv): Parsed {
  const args = parseArgs(argv, env);
  if (!("workload" in args)) return args;
  const workload = args.workload.map((w) => (w === STDIN ? STDIN : userPath(w, env)));
  const config = args.config === undefined ? undefined : userPath(args.config, env);
  const problems = [
    ...workload.flatMap((w, i) => (w === STDIN ? [] : pathProblems("--workload", args.workload[i], w))),
    ...(config === undefined ? [] : pathProblems("--config", args.config as string, config)),
  ];
  return problems.length > 0 ? { problems } : { ...args, workload, config };
}

export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  /** Standard input, for --workload -; the process's own when not given. */
  readonly stdin?: () => Buffer;
  /** The time "now" stands for (the end of --prometheus's usage window); the clock when not given. */
  readonly now?: () => Date;
}

/**
 * The plan on stdout. A table's warnings go to stderr: a person reads the table, and `> plan.txt` or `| less`
 * must not hide them. Markdown and JSON keep theirs in the document (a "Warnings" section; the `warnings`
 * field) and do not repeat them on stderr: those formats are read by their document's readers (a pull
 * request, a script), and one of the warnings (no spot prices offline) is on every offline plan, so stderr
 * would carry it into every CI log as noise, while a script that cares reads the field.
 */
function printPlan(plan: Plan, format: Format, io: CliIo): void {
  if (format === "json") io.out(`${JSON.stringify(plan.json, null, 2)}\n`);
  else if (format === "markdown") io.out(renderPlanMarkdown(plan));
  else {
    io.out(renderPlanTable(plan));
    for (const line of tableWarnings(plan)) io.err(line);
  }
}

/** Runs the planner; returns the exit code. User mistakes and AWS failures print one message, no stack trace. */
export async function runPlanCli(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = checkedArgs(argv, io.env);
  const toRun = argsToRun(parsed, io, { help: HELP, usage: USAGE });
  if ("exit" in toRun) return toRun.exit;
  const { args } = toRun;
  try {
    const liveCatalogue = args.live
      ? async (region: string) => {
          const { loadLiveCatalogue } = await import("./live/live-catalogue");
          return loadLiveCatalogue(region, { env: io.env, progress: io.err });
        }
      : undefined;
    const plan = await makePlan({
      workload: args.workload,
      config: args.config,
      region: args.region,
      env: io.env,
      liveCatalogue,
      stdin: io.stdin,
      usage: args.usage,
      now: io.now?.(),
    });
    printPlan(plan, args.format, io);
    return 0;
  } catch (error) {
    if (error instanceof InputErrors) {
      io.err(error.message);
      return 2;
    }
    if (error instanceof PrometheusError) {
      io.err(`npm run plan: ${error.message}`);
      return 1;
    }
    if (error instanceof Error && error.name === "LiveDataError") {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
}
