import * as fs from "node:fs";
import * as path from "node:path";
import { LineCounter, parseAllDocuments } from "yaml";
import { InputError } from "../../shared/input-error";
import { decodeUtf8, readAtMost, readFailure } from "../../shared/untrusted-file";
import type { Workload } from "./workload-model";
import { type ObjectResult, objectPods } from "./workload-objects";

// `--workload <file|dir>`: ordinary Kubernetes YAML (or JSON), multi-document files, a folder of them.
// Input is untrusted: no more than MAX_FILE_BYTES + 1 bytes are read of a file (its size is not trusted:
// /dev/zero has none), bytes that are not UTF-8 are refused, and YAML aliases are capped (the yaml package's
// maxAliasCount) so that a "billion laughs" document cannot expand without bound.

export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Workload YAML rarely needs anchors at all; 100 is the yaml package's own default. */
export const MAX_ALIAS_COUNT = 100;
const EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

/** A path that cannot be read, as a problem: the file system's reason in words, never a stack trace. */
function unreadable(target: string, error: unknown): string {
  const reason = readFailure(error);
  if (reason === undefined) throw error;
  return `${target}: cannot be read (${reason})`;
}

/** The files of a folder (and its subfolders) with a YAML or JSON extension, in a stable order. */
function listFiles(dir: string, problems: string[]): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    problems.push(unreadable(dir, error));
    return [];
  }
  return entries
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return listFiles(full, problems);
      return entry.isFile() && EXTENSIONS.has(path.extname(entry.name).toLowerCase()) ? [full] : [];
    });
}

/** The text of a file, or undefined after a problem: unreadable, too large, or not UTF-8. */
function readText(file: string, problems: string[]): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readAtMost(file, MAX_FILE_BYTES);
  } catch (error) {
    problems.push(unreadable(file, error));
    return undefined;
  }
  if (bytes.length > MAX_FILE_BYTES) {
    problems.push(`${file}: larger than ${MAX_FILE_BYTES} bytes (5 MiB), the most a workload file may be (split it, or plan a folder); it was not parsed`);
    return undefined;
  }
  const decoded = decodeUtf8(bytes);
  if ("badLine" in decoded) {
    problems.push(`${file}: line ${decoded.badLine} is not valid UTF-8; save the file as UTF-8 (bytes in another encoding are not guessed at)`);
    return undefined;
  }
  return decoded.text;
}

/** Parses one file into `result`; returns how many documents held something (not empty, not null). */
function parseFile(file: string, problems: string[], result: ObjectResult): number {
  const text = readText(file, problems);
  if (text === undefined) return 1;
  const lineCounter = new LineCounter();
  const documents = parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const list = Array.isArray(documents) ? documents : [documents];
  let filled = 0;
  list.forEach((document, i) => {
    const where = `${file}: document ${i + 1}`;
    if (document.errors.length > 0) {
      filled++;
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
      filled++;
      problems.push(`${where}: ${(error as Error).message} (more than ${MAX_ALIAS_COUNT} alias expansions)`);
      return;
    }
    if (object !== null && object !== undefined) filled++;
    objectPods(object, file, where, problems, result);
  });
  return filled;
}

/** The file names kustomize reads in a folder (kustomization.yaml, .yml, or Kustomization). */
const KUSTOMIZATION = /^(kustomization\.ya?ml|Kustomization)$/;

/** Every pod group and DaemonSet of a file or folder; every problem of every file at once, as a InputError. */
export function readWorkload(target: string): Workload {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
    throw new InputError("--workload", [missing ? `${target}: no such file or folder` : unreadable(target, error)]);
  }
  const problems: string[] = [];
  const listed = stat.isDirectory() ? listFiles(target, problems) : [target];
  // kustomize's own file lists manifests and patches; it is not one (it often has no kind at all).
  const kustomizations = listed.filter((file) => KUSTOMIZATION.test(path.basename(file)));
  if (!stat.isDirectory() && kustomizations.length > 0) {
    throw new InputError("--workload", [`${target}: is kustomize's file, not a manifest: plan what it renders (kustomize build <folder> > rendered.yaml)`]);
  }
  const files = listed.filter((file) => !kustomizations.includes(file));
  if (files.length === 0 && problems.length === 0) throw new InputError("--workload", [`${target}: no .yaml, .yml or .json files in this folder`]);
  const result: ObjectResult = { groups: [], daemonSets: [], skippedKinds: [] };
  const empty = files.filter((file) => parseFile(file, problems, result) === 0);
  if (problems.length === 0 && empty.length === files.length) {
    throw new InputError(target, [
      `${target}: no Kubernetes objects; ${files.length === 1 ? "the file is" : "every file is"} empty or holds only comments and "---"`,
    ]);
  }

  const seen = new Map<string, string>();
  for (const g of [...result.groups, ...result.daemonSets]) {
    const previous = seen.get(g.id);
    if (previous !== undefined) problems.push(`${g.file}: ${g.id} is defined twice (also in ${previous}); each namespace/name may appear once`);
    seen.set(g.id, g.file);
  }
  if (problems.length > 0) throw new InputError(target, problems);

  // An empty file among others is likely a placeholder or a generator's leftover: said, not fatal.
  const warnings = empty.map((file) => `${file}: no Kubernetes objects (empty, or only comments and "---"); skipped`);
  for (const file of kustomizations) {
    warnings.push(
      `${file}: kustomize's file, skipped: the folder's manifests are planned as written, without its patches; for what kustomize renders, plan kustomize build's output`,
    );
  }
  const noRequests = result.groups.filter((g) => !g.pod.hasRequests && g.replicas > 0).map((g) => g.id);
  if (noRequests.length > 0) warnings.push(`pods without CPU or memory requests count as zero: ${noRequests.join(", ")}`);
  const skipped = [...new Set(result.skippedKinds)].sort();
  if (skipped.length > 0) warnings.push(`kinds the planner does not know were skipped: ${skipped.join(", ")}`);
  const cron = result.groups.filter((g) => g.kind === "CronJob").map((g) => g.id);
  if (cron.length > 0) warnings.push(`CronJobs are planned as if their Job were running: ${cron.join(", ")}`);
  return { groups: result.groups, daemonSets: result.daemonSets, warnings };
}
