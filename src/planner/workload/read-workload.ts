import * as fs from "node:fs";
import * as path from "node:path";
import { InputError } from "../../shared/input-error";
import { parseDocuments } from "../../shared/manifest-documents";
import { decodeUtf8, readAtMost, readFailure, readStdinAtMost } from "../../shared/untrusted-file";
import { admittedPod } from "./admission";
import { withAutoscalers } from "./autoscalers";
import { admitWithinQuotas, type QuotaUsage } from "./resource-quotas";
import type { DaemonSetShape, PodGroup, Workload } from "./workload-model";
import { type DraftGroup, emptyObjectResult, type ObjectResult, objectPods, type PodSpecOf, readsKind } from "./workload-objects";

// `--workload <file|dir|->`: ordinary Kubernetes YAML (or JSON), multi-document files, a folder of them, or
// standard input. Input is untrusted: no more than MAX_FILE_BYTES + 1 bytes are read of a file (its size is
// not trusted: /dev/zero has none), bytes that are not UTF-8 are refused, and YAML aliases are capped
// (parse-documents.ts) so that a "billion laughs" document cannot expand without bound.

export const MAX_FILE_BYTES = 5 * 1024 * 1024;
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
    problems.push(`${file}: ${decoded.problem}`);
    return undefined;
  }
  return decoded.text;
}

/** Parses one file's text into `result`; returns how many documents held something (not empty, not null). */
function parseText(text: string, file: string, problems: string[], warnings: string[], result: ObjectResult): number {
  let filled = 0;
  // A document nested too deeply to parse stops the plan only when it is of a kind the planner reads.
  const skipTooDeep = (kind: string | undefined) => kind !== undefined && !readsKind(kind);
  for (const document of parseDocuments(text, file, problems, warnings, skipTooDeep)) {
    if (!document.empty) filled++;
    objectPods(document.value, file, `${file}: document ${document.index}`, problems, result);
  }
  return filled;
}

/** The file names kustomize reads in a folder (kustomization.yaml, .yml, or Kustomization). */
const KUSTOMIZATION = /^(kustomization\.ya?ml|Kustomization)$/;

/** What the planner calls standard input when --workload is "-". */
export const STDIN = "-";

/** Ids stay "<namespace>/<name>" unless two kinds share a name; then the kind tells them apart. */
function uniqueIds(groups: readonly PodGroup[]): PodGroup[] {
  const counts = new Map<string, number>();
  for (const g of groups) counts.set(g.id, (counts.get(g.id) ?? 0) + 1);
  return groups.map((g) => ((counts.get(g.id) ?? 0) > 1 ? { ...g, id: `${g.id} (${g.kind})` } : g));
}

/** The files a --workload names, with their text read (or a problem for each that cannot be). */
function workloadTexts(
  target: string,
  stdin: () => Buffer,
  problems: string[],
): { texts: { file: string; text: () => string | undefined }[]; kustomizations: string[] } {
  if (target === STDIN) {
    const bytes = stdin();
    if (bytes.length > MAX_FILE_BYTES) {
      problems.push(`standard input: larger than ${MAX_FILE_BYTES} bytes (5 MiB), the most a workload may be; split it into files and plan their folder`);
      return { texts: [], kustomizations: [] };
    }
    const decoded = decodeUtf8(bytes);
    if ("badLine" in decoded) problems.push(`standard input: ${decoded.problem}`);
    return { texts: [{ file: "standard input", text: () => ("badLine" in decoded ? undefined : decoded.text) }], kustomizations: [] };
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
    throw new InputError("--workload", [missing ? `${target}: no such file or folder` : unreadable(target, error)]);
  }
  const listed = stat.isDirectory() ? listFiles(target, problems) : [target];
  // kustomize's own file lists manifests and patches; it is not one (it often has no kind at all).
  const kustomizations = listed.filter((file) => KUSTOMIZATION.test(path.basename(file)));
  if (!stat.isDirectory() && kustomizations.length > 0) {
    throw new InputError("--workload", [`${target}: is kustomize's file, not a manifest: plan what it renders (kustomize build <folder> > rendered.yaml)`]);
  }
  const files = listed.filter((file) => !kustomizations.includes(file));
  if (files.length === 0 && problems.length === 0) throw new InputError("--workload", [`${target}: no .yaml, .yml or .json files in this folder`]);
  // Read when parsed, so that every file's problems come in the order of the files.
  return { texts: files.map((file) => ({ file, text: () => readText(file, problems) })), kustomizations };
}

const readStdin = (): Buffer => readStdinAtMost(MAX_FILE_BYTES);

/** What a target is called in messages. */
const nameOf = (target: string) => (target === STDIN ? "standard input" : target);

/**
 * Every pod group and DaemonSet of files, folders or standard input ("-"), read together as one workload (as
 * `kubectl apply -f a -f b` applies them); every problem of every file at once, as an InputError.
 */
export function readWorkload(targets: string | readonly string[], stdin: () => Buffer = readStdin, podSpecOf?: PodSpecOf): Workload {
  const list = typeof targets === "string" ? [targets] : targets;
  const source = list.map(nameOf).join(", ");
  const problems: string[] = [];
  const warnings: string[] = [];
  const texts: { file: string; text: () => string | undefined }[] = [];
  const kustomizations: string[] = [];
  for (const target of list) {
    try {
      const read = workloadTexts(target, stdin, problems);
      texts.push(...read.texts);
      kustomizations.push(...read.kustomizations);
    } catch (error) {
      if (!(error instanceof InputError) || list.length === 1) throw error;
      problems.push(...error.problems);
    }
  }
  const result = emptyObjectResult(podSpecOf);
  const empty = texts
    .filter(({ file, text }) => {
      const read = text();
      return read !== undefined && parseText(read, file, problems, warnings, result) === 0;
    })
    .map((t) => t.file);
  if (problems.length === 0 && empty.length === texts.length) {
    const what = list.length > 1 ? "every file is" : list[0] === STDIN ? "it is" : texts.length === 1 ? "the file is" : "every file is";
    throw new InputError(source, [`${source}: no Kubernetes objects; ${what} empty or holds only comments and "---"`]);
  }
  if (problems.length > 0) throw new InputError(source, problems);

  const { groups: admitted, pinned, daemonSets, assumed, refused, usage } = admitAll(result);
  for (const [group, reason] of refused) {
    warnings.push(`${group.id}: admission refuses its pods, so its controller never creates them and the plan holds none: ${reason}`);
  }
  const scaled = withAutoscalers(admitted, result.autoscalers, pinned, warnings);
  const quotas = [...result.quotas.values()].map(({ file: _file, ...quota }) => quota);
  const withinQuotas = admitWithinQuotas(scaled, quotas, (group) => usage.get(groupKey(group)) as QuotaUsage);
  warnings.push(...withinQuotas.warnings);
  const groups = uniqueIds([...withinQuotas.groups]);
  // An empty file among others is likely a placeholder or a generator's leftover: said, not fatal.
  warnings.push(...empty.map((file) => `${file}: no Kubernetes objects (empty, or only comments and "---"); skipped`));
  for (const file of kustomizations) {
    warnings.push(
      `${file}: kustomize's file, skipped: the folder's manifests are planned as written, without its patches; for what kustomize renders, plan kustomize build's output`,
    );
  }
  if (result.repeated.length > 0)
    warnings.push(`objects defined more than once; the last definition stands, as kubectl apply leaves it: ${result.repeated.join(", ")}`);
  if (result.hooks.length > 0) warnings.push(`Helm hook objects run around a release, not steadily, and were left out: ${result.hooks.join(", ")}`);
  const noRequests = groups.filter((g) => !g.pod.hasRequests && g.replicas > 0).map((g) => g.id);
  if (noRequests.length > 0) warnings.push(`pods without CPU or memory requests count as zero: ${noRequests.join(", ")}`);
  const skipped = [...new Set(result.skippedKinds)].sort();
  if (skipped.length > 0) warnings.push(`kinds the planner does not know were skipped: ${skipped.join(", ")}`);
  if (result.podCreators.length > 0)
    warnings.push(
      `objects of kinds that create pods, which the planner does not read, were skipped; their pods are not in the plan: ${result.podCreators.join(", ")}`,
    );
  for (const [assumption, ids] of assumed) warnings.push(`${assumption}: ${[...ids].join(", ")}`);
  return { groups, daemonSets, pdbs: [...result.pdbs.values()].map(({ file: _file, ...pdb }) => pdb), warnings };
}

/** A group's key: its kind, namespace and name, as the workload's objects are keyed. */
const groupKey = (group: Pick<PodGroup, "kind" | "namespace" | "name">) => `${group.kind}\0${group.namespace}\0${group.name}`;

/**
 * Every pod as the cluster's admission makes it, once every file is read; what had to be assumed, with the pods it
 * concerns; the groups admission refuses outright (a LimitRange's bounds), at no replicas; and, where the workload
 * has ResourceQuotas, what each group's pod counts against them.
 */
function admitAll(result: ObjectResult): {
  groups: PodGroup[];
  pinned: Set<PodGroup>;
  daemonSets: DaemonSetShape[];
  assumed: Map<string, Set<string>>;
  refused: Map<PodGroup, string>;
  usage: Map<string, QuotaUsage>;
} {
  const assumed = new Map<string, Set<string>>();
  const refused = new Map<PodGroup, string>();
  const usage = new Map<string, QuotaUsage>();
  const admit = (facts: DraftGroup["facts"], namespace: string, id: string) => {
    const admitted = admittedPod(facts, namespace, result.admission);
    for (const a of admitted.assumed) assumed.set(a, (assumed.get(a) ?? new Set()).add(id));
    return admitted;
  };
  const pinned = new Set<PodGroup>();
  const groups: PodGroup[] = [];
  const counted = result.quotas.size > 0;
  // Each draft is let go once admitted: a plan of a hundred thousand distinct pods holds one copy at a time.
  for (const [key, written] of result.groups) {
    result.groups.delete(key);
    const admitted = admit(written.facts, written.namespace, written.id);
    const { pod, ignoredBecause, refusedBy } = admitted;
    const { id, kind, namespace, name, labels, file, boundTo, orderedReady } = written;
    const replicas = refusedBy === undefined ? written.replicas : 0;
    // Written out, not spread: groups built alike share one shape, which the scheduler reads in its hot paths.
    const common: PodGroup = { id, kind, namespace, name, labels, replicas, pod, file };
    const group: PodGroup =
      boundTo === undefined && orderedReady === undefined && ignoredBecause === undefined
        ? common
        : {
            ...common,
            ...(boundTo === undefined ? {} : { boundTo }),
            ...(orderedReady === undefined ? {} : { orderedReady }),
            ...(ignoredBecause === undefined ? {} : { ignoredBecause }),
          };
    // A group admission refuses has no pods for an autoscaler to scale either.
    if (result.pinnedToZero.has(written) || refusedBy !== undefined) pinned.add(group);
    if (refusedBy !== undefined) refused.set(group, refusedBy);
    if (counted) {
      const { cpuMillis, memoryBytes, extended } = pod;
      usage.set(groupKey(group), { requests: { cpu: cpuMillis, memory: memoryBytes, ...extended }, limits: admitted.limits, missing: admitted.unset });
    }
    groups.push(group);
  }
  const daemonSets = [...result.daemonSets.values()].flatMap(({ id, namespace, facts, file }) => {
    const admitted = admit(facts, namespace, id);
    if (admitted.refusedBy !== undefined) {
      refused.set({ id, kind: "DaemonSet", namespace, name: id.split("/")[1] ?? id, labels: {}, replicas: 0, pod: admitted.pod, file }, admitted.refusedBy);
      return [];
    }
    return [{ id, pod: admitted.pod, file }];
  });
  return { groups, pinned, daemonSets, assumed, refused, usage };
}
