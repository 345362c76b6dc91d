import * as fs from "node:fs";
import * as path from "node:path";

/** The folder holding package.json, whether this runs from src/ (tests), dist/ or the bundle cache under node_modules. */
export function projectRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = parent;
  }
  return dir;
}
