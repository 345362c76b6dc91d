import * as path from "node:path";
import { AWS_REGION_EXPECTED, isAwsRegion } from "../shared/aws-regions";
import { InputError } from "../shared/input-error";
import { buildFromReference } from "./catalogue/build-catalogue";
import { argsToRun, parseFlags } from "./cli-flags";
import { userPath } from "./cli-paths";

// `npm run catalogue [-- --reference <dir>]` rewrites the committed catalogue from Karpenter's reference;
// `npm run catalogue -- --live --region <r>` from EC2 and the Price List API (needs AWS credentials).
// Exit codes: 0 written (or the help); 2 a mistake in the flags or the reference folder; 1 AWS or the data failed.

export const USAGE = "usage: npm run catalogue [-- --reference <dir>] | [-- --live --region <region>]";

export const HELP = `${USAGE}

Rewrites the instance catalogue (src/instance-catalogue/data) and the AWS list prices (src/planner/data).
  --reference <dir>   Karpenter's reference files (karpenter/ and aws/); default ../shared/reference
  --live              from the AWS APIs instead: EC2 DescribeInstanceTypes and the Price List API (AWS credentials)
  --region <region>   with --live, the region whose instance types are fetched, such as us-east-1
  --help              this text
A relative --reference is read from the folder npm was run in.
`;

export interface CatalogueCliIo {
  readonly root: string;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly env: NodeJS.ProcessEnv;
}

type Parsed =
  | { readonly help: true }
  | { readonly problems: readonly string[] }
  | { readonly live: false; readonly reference: string }
  | { readonly live: true; readonly region: string };

/** Every flag problem at once, or what to build from. */
function parseArgs(argv: readonly string[], io: CatalogueCliIo): Parsed {
  if (argv.includes("--help") || argv.includes("-h")) return { help: true };
  const flags = parseFlags(argv, { valueFlags: ["--reference", "--region"], switches: { "--live": "" } });
  const problems = flags.problems.slice();
  const values: Record<string, string> = {};
  for (const [flag, value] of Object.entries(flags.values)) {
    if (value === "") problems.push(`${flag}: missing value`);
    else values[flag] = value;
  }
  const live = flags.switches.has("--live");
  const region = values["--region"];
  const reference = values["--reference"];
  // Each flag belongs to one source: silently dropping the other one would build from what was not asked for.
  if (live && region === undefined && !problems.some((p) => p.startsWith("--region"))) problems.push("--live: needs --region <region>");
  if (!live && region !== undefined)
    problems.push(
      `--region: got ${JSON.stringify(region)}; only with --live (the reference build is Karpenter's us-east-1 data): add --live, or leave --region out`,
    );
  if (live && reference !== undefined) problems.push(`--reference: got ${JSON.stringify(reference)}; not with --live, which reads the AWS APIs instead`);
  if (region !== undefined && !isAwsRegion(region)) problems.push(`--region: got ${JSON.stringify(region)}; ${AWS_REGION_EXPECTED}`);
  if (problems.length > 0) return { problems };
  if (live) return { live, region: region as string };
  return { live, reference: reference === undefined ? path.resolve(io.root, "..", "shared", "reference") : path.resolve(userPath(reference, io.env)) };
}

/** Returns the exit code; never throws for a user mistake. */
export async function runCatalogueCli(argv: readonly string[], io: CatalogueCliIo): Promise<number> {
  const parsed = parseArgs(argv, io);
  const toRun = argsToRun(parsed, io, { help: HELP.trimEnd(), usage: USAGE });
  if ("exit" in toRun) return toRun.exit;
  const { args } = toRun;
  try {
    const result = args.live
      ? await (await import("./live/refresh-catalogue")).refreshCatalogueLive(io.root, args.region, { env: io.env, progress: io.err })
      : buildFromReference(io.root, args.reference);
    io.out(`Wrote ${result.written.map((f) => path.relative(io.root, f)).join(", ")}\n  ${result.summary}`);
    return 0;
  } catch (error) {
    if (error instanceof InputError) {
      io.err(error.message);
      return 2;
    }
    // AWS failing (LiveDataError), or reference files whose format changed: one line, exit 1.
    io.err((error as Error).message);
    return 1;
  }
}
