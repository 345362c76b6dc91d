import * as path from "node:path";
import { projectRoot } from "./project-root";

/**
 * The folder a relative path the user typed is relative to. npm runs this package's scripts from the package
 * root and records the folder the command was typed in as INIT_CWD. Only npm running this package's own
 * script counts (npm_package_json names our package.json): a process started some other way (a Makefile
 * calling `cdktf deploy` from inside an `npm run` of another package) inherits a stale INIT_CWD that says
 * nothing about where its paths are meant from.
 * @see https://docs.npmjs.com/cli/v10/commands/npm-run-script (INIT_CWD, npm_package_json)
 */
export function userFolder(env: NodeJS.ProcessEnv): string {
  const ranByNpmHere = env.INIT_CWD && env.npm_package_json && path.resolve(env.npm_package_json) === path.join(projectRoot(), "package.json");
  return ranByNpmHere ? (env.INIT_CWD as string) : process.cwd();
}
