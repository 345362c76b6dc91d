import * as fs from "node:fs";
import * as path from "node:path";
import { readFailure } from "../shared/untrusted-file";
import { userFolder } from "../shared/user-folder";

// The paths a user types after --workload and --config. npm runs every script from the package root,
// whatever folder the command was typed in, and records that folder in INIT_CWD: a relative path means what
// it means there (`cd templates && npm run plan -- --workload demo`).
// @see https://docs.npmjs.com/cli/v10/commands/npm-run-script (INIT_CWD)

/**
 * The path to read for a value the user typed: relative to the folder npm was run in (userFolder), else to
 * the current folder. Kept as typed when it means the same from here, so that messages and the plan's header read as
 * the user wrote them; absolute otherwise, so that they name the file actually read.
 */
export function userPath(value: string, env: NodeJS.ProcessEnv): string {
  const resolved = path.resolve(userFolder(env), value);
  return resolved === path.resolve(value) ? value : resolved;
}

/**
 * What is wrong with a path a flag names, in the flags' own words (flag, the value typed, the absolute path
 * tried), or nothing. A cluster config and a state must be one readable file; a workload a file or a folder.
 */
export function pathProblems(
  flag: "--workload" | "--config" | "--state" | "--compare" | "--prometheus-ca" | "--replicas",
  typed: string,
  target: string,
): string[] {
  const oneFile = flag !== "--workload";
  const tried = path.resolve(target);
  const got = `${flag}: got ${JSON.stringify(typed)}`;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
    if (oneFile) fs.accessSync(target, fs.constants.R_OK);
  } catch (error) {
    const reason = readFailure(error);
    if (reason === undefined) throw error;
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    if (missing) return [`${got}; no such ${oneFile ? "file" : "file or folder"}: ${tried}`];
    return [`${got}; cannot be read (${reason}): ${tried}`];
  }
  if (oneFile && stat.isDirectory()) return [`${got}; is a folder; ${flag === "--config" ? "a plan is for one cluster file" : "it names one file"}`];
  return [];
}
