import * as fs from "node:fs";
import * as path from "node:path";
import { LineCounter, parseAllDocuments } from "yaml";
import { InputError } from "../../shared/input-error";
import type { Workload } from "./workload-model";
import { type ObjectResult, objectPods } from "./workload-objects";

// `--workload <file|dir>`: ordinary Kubernetes YAML (or JSON), multi-document files, a folder of them.
// Input is untrusted: files over MAX_FILE_BYTES are refused before parsing, and YAML aliases are capped
// (the yaml package's maxAliasCount) so that a "billion laughs" document cannot expand without bound.

export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Workload YAML rarely needs anchors at all; 100 is the yaml package's own default. */
export const MAX_ALIAS_COUNT = 100;
const EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

/** The files of a folder (and its subfolders) with a YAML or JSON extension, in a stable order. */
function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return listFiles(full);
      return entry.isFile() && EXTENSIONS.has(path.extname(entry.name).toLowerCase()) ? [full] : [];
    });
}

function parseFile(file: string, problems: string[], result: ObjectResult): void {
  const size = fs.statSync(file).size;
  if (size > MAX_FILE_BYTES) {
    problems.push(`${file}: ${size} bytes; workload files may be at most ${MAX_FILE_BYTES} bytes (split it, or plan a folder)`);
    return;
  }
  const text = fs.readFileSync(file, "utf8");
  const lineCounter = new LineCounter();
  const documents = parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const list = Array.isArray(documents) ? documents : [documents];
  list.forEach((document, i) => {
    const where = `${file}: document ${i + 1}`;
    if (document.errors.length > 0) {
      for (const e of document.errors) {
        const { line, col } = lineCounter.linePos(e.pos[0]);
        problems.push(`${file}: line ${line}, column ${col}: ${e.message.split("\n")[0]}`);
      }
      return;
    }
    let object: unknown;
    try {
      object = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      problems.push(`${where}: ${(error as Error).message} (more than ${MAX_ALIAS_COUNT} alias expansions)`);
      return;
    }
    objectPods(object, file, where, problems, result);
  });
}

/** Every pod group and DaemonSet of a file or folder; every problem of every file at once, as a InputError. */
export function readWorkload(target: string): Workload {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    throw new InputError("--workload", [`${target}: no such file or folder`]);
  }
  const files = stat.isDirectory() ? listFiles(target) : [target];
  if (files.length === 0) throw new InputError("--workload", [`${target}: no .yaml, .yml or .json files in this folder`]);
  const problems: string[] = [];
  const result: ObjectResult = { groups: [], daemonSets: [], skippedKinds: [] };
  for (const file of files) parseFile(file, problems, result);

  const seen = new Map<string, string>();
  for (const g of [...result.groups, ...result.daemonSets]) {
    const previous = seen.get(g.id);
    if (previous !== undefined) problems.push(`${g.file}: ${g.id} is defined twice (also in ${previous}); each namespace/name may appear once`);
    seen.set(g.id, g.file);
  }
  if (problems.length > 0) throw new InputError(target, problems);

  const warnings: string[] = [];
  const noRequests = result.groups.filter((g) => !g.pod.hasRequests && g.replicas > 0).map((g) => g.id);
  if (noRequests.length > 0) warnings.push(`pods without CPU or memory requests count as zero: ${noRequests.join(", ")}`);
  const skipped = [...new Set(result.skippedKinds)].sort();
  if (skipped.length > 0) warnings.push(`kinds the planner does not know were skipped: ${skipped.join(", ")}`);
  const cron = result.groups.filter((g) => g.kind === "CronJob").map((g) => g.id);
  if (cron.length > 0) warnings.push(`CronJobs are planned as if their Job were running: ${cron.join(", ")}`);
  return { groups: result.groups, daemonSets: result.daemonSets, warnings };
}
