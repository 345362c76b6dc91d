import * as fs from "node:fs";
import * as path from "node:path";
import { InputError } from "../shared/input-error";

/** Why a folder could not be made writable, in words rather than an errno. */
function reason(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ENOTDIR":
    case "EEXIST":
      return "a part of that path is a file, not a folder";
    case "EACCES":
    case "EPERM":
      return "this user may not write there";
    case "EROFS":
      return "that file system is read-only";
    default:
      return `it cannot be created (${error.code ?? error.message})`;
  }
}

/**
 * Creates the folder cdktf writes the stacks into, with its parents, before any stack is built: cdktf's own
 * mkdir creates one level only and fails with a stack trace. CDKTF_OUTDIR is set by the cdktf CLI and
 * npm run synth, or by hand; without it cdktf writes cdktf.out in the working folder.
 */
export function prepareOutputDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const outdir = path.resolve(env.CDKTF_OUTDIR || "cdktf.out");
  try {
    fs.mkdirSync(outdir, { recursive: true });
    fs.accessSync(outdir, fs.constants.W_OK);
  } catch (error) {
    const source = env.CDKTF_OUTDIR ? "CDKTF_OUTDIR" : "the output folder";
    throw new InputError(source, [
      `got ${JSON.stringify(outdir)}; must be a folder this user can write, or one that can be created: ${reason(error as NodeJS.ErrnoException)}`,
    ]);
  }
  return outdir;
}
