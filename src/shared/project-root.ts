import * as fs from "node:fs";
import * as path from "node:path";

/**
 * The project folder: the nearest folder above this module whose package.json is this project's. This code
 * runs from src/ (tests) or from a bundle cached under node_modules/.cache (synth, plan); data files are read
 * from there at run time, so a refreshed catalogue is never served stale from a bundle.
 */
export function projectRoot(): string {
  // Found once per process: synth asks for it several times (the catalogue, the Lambda bundle, INIT_CWD).
  found ??= findProjectRoot();
  return found;
}

let found: string | undefined;

function findProjectRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, "utf8")).name === "autonomous-eks") return dir;
    if (path.dirname(dir) === dir) throw new Error(`the autonomous-eks package.json is not above ${__dirname}`);
  }
}
