import * as path from "node:path";
import { buildFromReference } from "./build-catalogue";

// `npm run catalogue [-- --reference <dir>]` rewrites the committed catalogue from Karpenter's reference;
// `npm run catalogue -- --live --region <r>` from EC2 and the Price List API (needs AWS credentials).

const USAGE = "usage: npm run catalogue [-- --reference <dir>] | [-- --live --region <region>]";

export interface CatalogueCliIo {
  readonly root: string;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly env: NodeJS.ProcessEnv;
}

/** Returns the exit code; never throws for a user mistake. */
export async function runCatalogueCli(argv: readonly string[], io: CatalogueCliIo): Promise<number> {
  const problems: string[] = [];
  let reference = path.resolve(io.root, "..", "shared", "reference");
  let live = false;
  let region: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--live") live = true;
    else if (arg === "--reference" || arg === "--region") {
      const value = argv[++i];
      if (value === undefined || value.startsWith("--")) problems.push(`${arg}: missing value`);
      else if (arg === "--reference") reference = path.resolve(value);
      else region = value;
    } else problems.push(`${arg}: unknown argument`);
  }
  if (live && region === undefined) problems.push("--live: needs --region <region>");
  if (problems.length > 0) {
    io.err(`${problems.join("\n")}\n${USAGE}`);
    return 2;
  }
  try {
    if (live) {
      const { refreshCatalogueLive } = await import("../live/refresh-catalogue");
      const result = await refreshCatalogueLive(io.root, region as string, { env: io.env, progress: io.err });
      io.out(`Wrote ${result.written.map((f) => path.relative(io.root, f)).join(", ")}\n  ${result.summary}`);
      return 0;
    }
    const result = buildFromReference(io.root, reference);
    io.out(`Wrote ${result.written.map((f) => path.relative(io.root, f)).join(", ")}\n  ${result.summary}`);
    return 0;
  } catch (error) {
    io.err((error as Error).message);
    return 1;
  }
}
