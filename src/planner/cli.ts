import { InputErrors } from "../shared/input-error";
import { makePlan } from "./make-plan";
import { renderPlanMarkdown } from "./render/render-markdown";
import { renderPlanTable } from "./render/render-table";

// `npm run plan -- --workload <file|dir> [--config cluster.yaml] [--region r] [--format table|markdown|json] [--live]`
// Exit codes: 0 a plan was printed; 2 the input is wrong (every problem listed); 1 the live data failed.

export const USAGE = "usage: npm run plan -- --workload <file|dir> [--config cluster.yaml] [--region <region>] [--format table|markdown|json] [--live]";

const FORMATS = ["table", "markdown", "json"] as const;
type Format = (typeof FORMATS)[number];

export interface PlanArgs {
  readonly workload: string;
  readonly config?: string;
  readonly region?: string;
  readonly format: Format;
  readonly live: boolean;
}

/** Every flag problem at once, or the parsed flags. */
export function parseArgs(argv: readonly string[]): PlanArgs | { readonly problems: readonly string[] } {
  const problems: string[] = [];
  const values: Record<string, string> = {};
  let live = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if (flag === "--live") live = true;
    else if (["--workload", "--config", "--region", "--format"].includes(flag)) {
      const value = inline ?? argv[i + 1];
      if (inline === undefined) i++;
      if (value === undefined || (inline === undefined && value.startsWith("--"))) {
        problems.push(`${flag}: missing value`);
        if (value?.startsWith("--")) i--;
      } else if (flag in values) problems.push(`${flag}: given twice`);
      else values[flag] = value;
    } else problems.push(`${arg}: unknown argument`);
  }
  if (values["--workload"] === undefined && !problems.some((p) => p.startsWith("--workload")))
    problems.push("--workload: required (a Kubernetes YAML file or a folder of them)");
  const format = values["--format"] ?? "table";
  if (!(FORMATS as readonly string[]).includes(format)) problems.push(`--format: got ${JSON.stringify(format)}; allowed: ${FORMATS.join(", ")}`);
  const region = values["--region"];
  if (region !== undefined && !/^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d$/.test(region))
    problems.push(`--region: got ${JSON.stringify(region)}; must be an AWS region such as us-east-1`);
  if (problems.length > 0) return { problems };
  return { workload: values["--workload"], config: values["--config"], region, format: format as Format, live };
}

export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
}

/** Runs the planner; returns the exit code. User mistakes and AWS failures print one message, no stack trace. */
export async function runPlanCli(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  if ("problems" in args) {
    io.err(`${args.problems.map((p) => `  - ${p}`).join("\n")}\n${USAGE}`);
    return 2;
  }
  try {
    const liveCatalogue = args.live
      ? async (region: string) => {
          const { loadLiveCatalogue } = await import("./live/live-catalogue");
          return loadLiveCatalogue(region, { env: io.env, progress: io.err });
        }
      : undefined;
    const plan = await makePlan({ workload: args.workload, config: args.config, region: args.region, env: io.env, liveCatalogue });
    io.out(args.format === "json" ? `${JSON.stringify(plan.json, null, 2)}\n` : args.format === "markdown" ? renderPlanMarkdown(plan) : renderPlanTable(plan));
    return 0;
  } catch (error) {
    if (error instanceof InputErrors) {
      io.err(error.message);
      return 2;
    }
    if (error instanceof Error && error.name === "LiveDataError") {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
}
