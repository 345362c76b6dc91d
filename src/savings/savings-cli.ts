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

// `npm run savings -- --state <file|-> [--format table|markdown|json] [--at <time>] [--spot-to-spot]`
// Exit codes: 0 a report was printed (or the help); 2 the input is wrong (every problem listed).

export const USAGE = "usage: npm run savings -- --state <file|-> [--format table|markdown|json] [--at <RFC 3339 time>] [--spot-to-spot]";

export const HELP = `${USAGE}

What a running cluster costs now, where Karpenter's consolidation settles it, and why each remaining node stays
(docs/planner.md, Consolidation).
  --state <file|->    the cluster's objects as kubectl prints them, JSON or YAML, or - for standard input:
                      ${KUBECTL_GET_STATE}
                      (leave out the karpenter kinds on a cluster without Karpenter: kubectl refuses unknown kinds)
  --format <format>   table (the default; warnings on stderr), markdown or json (warnings in the document)
  --at <time>         when disruption budgets' schedules are evaluated, such as 2026-11-26T14:00:00Z; default now
  --spot-to-spot      as with Karpenter's SpotToSpotConsolidation feature gate on (off by default)
  --help              this text
Relative paths are read from the folder npm was run in. Exit codes: 0 a report, 2 a mistake in the input.
`;

const FORMATS = ["table", "markdown", "json"] as const;
type Format = (typeof FORMATS)[number];

/** RFC 3339: a date, a time and an offset or Z. */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export interface SavingsArgs {
  readonly state: string;
  readonly format: Format;
  readonly at: Date;
  readonly spotToSpot: boolean;
}

type Parsed = SavingsArgs | { readonly problems: readonly string[] } | { readonly help: true };

export function parseSavingsArgs(argv: readonly string[], now: Date, env: NodeJS.ProcessEnv): Parsed {
  if (argv.includes("--help") || argv.includes("-h")) return { help: true };
  const flags = parseFlags(argv, {
    valueFlags: ["--state", "--format", "--at"],
    switches: { "--spot-to-spot": "; leave it out for the gate's default (off)" },
  });
  const problems = [...flags.problems];
  const { values } = flags;
  const state = values["--state"];
  if (state === undefined && !problems.some((p) => p.startsWith("--state")))
    problems.push(`--state: required (a file of ${KUBECTL_GET_STATE.split(" > ")[0]}, or -)`);
  if (state === "") problems.push('--state: got ""; must name a state file, or - for standard input');
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
  return { state: resolved as string, format: format as Format, at, spotToSpot: flags.switches.has("--spot-to-spot") };
}

export interface SavingsIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin?: () => Buffer;
  /** The time "now" stands for; the clock when not given. */
  readonly now?: () => Date;
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
    const objects = readStateFile(args.state, io.stdin);
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
    throw error;
  }
}
