import { InputError } from "../shared/input-error";
import { parseDocuments } from "../shared/manifest-documents";
import { decodeUtf8, readAtMost, readFailure, readStdinAtMost } from "../shared/untrusted-file";
import { type ClusterObjects, emptyClusterObjects, type UnreadKind } from "./cluster-objects";
import { eachListItem } from "./json-list-items";
import { type JsonValue, jsonValues } from "./json-values";
import { KUBECTL_GET_STATE, STATE_KINDS, stateKind } from "./state-kinds";
import { trimObject } from "./trim-object";

// `--state <file|->`: a cluster's state as `kubectl get <kinds> -A -o json` (or -o yaml) prints it: one List
// whose items carry their kinds, typed lists (a PodList's items have no kind of their own, and kubectl reads them
// as pods), several documents, or single objects. Each object the report reads is cut to its fields as it is
// read (trim-object.ts); other kinds are counted and skipped. Every problem of the file at once.

/**
 * A state file larger than this is refused unread: JavaScript holds no longer text, and a cluster that large is
 * better read directly (--kubeconfig pages the API) or saved trimmed (--save).
 */
export const MAX_STATE_BYTES = 512 * 1024 * 1024;

/** What --state calls standard input. */
export const STATE_STDIN = "-";

/** The kind a typed list's items have: PodList → Pod; undefined for a plain List. */
const itemKindOf = (listKind: string) => (listKind !== "List" && listKind.endsWith("List") ? listKind.slice(0, -"List".length) : undefined);

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The documents of the text: JSON parsed at once (state files are large); several JSON values one after another
 * (`>>`, kubectl cluster-info dump) each as a document; anything else as YAML documents.
 */
function documentsOf(text: string, name: string, problems: string[], warnings: string[]): readonly JsonValue[] {
  if (/^\s*[{[]/.test(text)) {
    try {
      return [{ index: 1, value: JSON.parse(text) }];
    } catch (error) {
      const several = jsonValues(text);
      if ("values" in several) return several.values;
      // The first value is itself broken: JSON.parse says best where; past it, the splitter names the line.
      problems.push(several.parsed === 0 ? `${name}: not valid JSON: ${(error as Error).message}` : `${name}: ${several.problem}`);
      return [];
    }
  }
  return parseDocuments(text, name, problems, warnings).filter((d) => !d.empty);
}

/**
 * Takes each item of the file's one List as it is parsed (json-list-items.ts), with the kind of a typed list's
 * items (a PodList's have none of their own) once the list says it; false when the file is not one List, or is
 * broken, for the whole-text reader to take over.
 */
function readItemByItem(bytes: Uint8Array, name: string, take: (value: unknown, where: string, listItemKind?: string) => void): boolean {
  const waiting: { item: unknown; index: number }[] = [];
  const rest = eachListItem(bytes, (item, index, before) => {
    const listKind = typeof before.kind === "string" ? before.kind : undefined;
    const hasKind = typeof item === "object" && item !== null && typeof (item as { kind?: unknown }).kind === "string";
    // kubectl sorts `kind` after `items`: a typed list's items wait for it (kubectl's own lists' items carry a kind).
    if (!hasKind && listKind === undefined) waiting.push({ item, index });
    else take(item, `${name}: document 1: items[${index}]`, listKind === undefined ? undefined : itemKindOf(listKind));
  });
  if (rest === undefined) return false;
  const listKind = typeof rest.kind === "string" ? rest.kind : undefined;
  if (listKind !== undefined && !listKind.endsWith("List")) return false;
  for (const { item, index } of waiting) take(item, `${name}: document 1: items[${index}]`, listKind === undefined ? undefined : itemKindOf(listKind));
  return true;
}

/** The cluster's objects in a state file (or standard input); throws InputError with every problem of the file. */
export interface StateFileOptions {
  readonly stdin?: () => Buffer;
  /** Reads a document of another format (a saved report's snapshot) into objects, or says it is not one. */
  readonly other?: (document: unknown, name: string) => ClusterObjects | undefined;
}

export function readStateFile(file: string, options: StateFileOptions = {}): ClusterObjects {
  const stdin = options.stdin ?? (() => readStdinAtMost(MAX_STATE_BYTES));
  const name = file === STATE_STDIN ? "standard input" : file;
  const refuse = (problems: readonly string[]) => new InputError(`--state ${name}`, problems);
  let bytes: Buffer;
  try {
    bytes = file === STATE_STDIN ? stdin() : readAtMost(file, MAX_STATE_BYTES);
  } catch (error) {
    const reason = readFailure(error);
    if (reason === undefined) throw error;
    throw refuse([`${name}: cannot be read (${reason})`]);
  }
  if (bytes.length > MAX_STATE_BYTES) {
    throw refuse([
      `${name}: larger than 512 MiB, the most a state file may be; read the cluster directly (--kubeconfig, which pages the API), or save it trimmed with --save`,
    ]);
  }
  const problems: string[] = [];
  const warnings: string[] = [];
  let objects = emptyClusterObjects(name);
  let skipped = new Map<string, number>();
  const take = (value: unknown, where: string, listItemKind?: string) => {
    if (!isMapping(value)) {
      problems.push(`${where}: got ${value === null ? "null" : Array.isArray(value) ? "a list" : typeof value}; must be a Kubernetes object or a List of them`);
      return;
    }
    const kind = typeof value.kind === "string" ? value.kind : listItemKind;
    if (kind === undefined) {
      problems.push(`${where}: kind: missing; each item of a List needs one (kubectl get -o json writes it)`);
      return;
    }
    if (Array.isArray(value.items) && kind.endsWith("List")) {
      for (const [i, item] of value.items.entries()) take(item, `${where}: items[${i}]`, itemKindOf(kind));
      return;
    }
    const read = stateKind(kind);
    if (read === undefined) skipped.set(kind, (skipped.get(kind) ?? 0) + 1);
    else objects.byKind[read.kind].push(trimObject(read.kind, value));
  };
  if (!readItemByItem(bytes, name, take)) {
    // Not one List (YAML, several documents, a snapshot), or broken: read whole, afresh, and say what is wrong.
    objects = emptyClusterObjects(name);
    skipped = new Map<string, number>();
    problems.length = 0;
    const decoded = decodeUtf8(bytes);
    if ("badLine" in decoded) throw refuse([`${name}: ${decoded.problem}`]);
    const documents = documentsOf(decoded.text, name, problems, warnings);
    const other = documents.length === 1 ? options.other?.(documents[0].value, name) : undefined;
    if (other !== undefined) return other;
    for (const document of documents) take(document.value, `${name}: document ${document.index}`);
  }

  // A new cluster may run no pod yet (or no node): that is a report. A file with neither is not a cluster's state.
  const required = STATE_KINDS.filter((k) => k.required);
  if (problems.length === 0 && required.every((k) => objects.byKind[k.kind].length === 0)) {
    problems.push(`${name}: holds no ${required.map((k) => k.kind).join(" and no ")}; the report needs the cluster's nodes and pods: ${KUBECTL_GET_STATE}`);
  }
  if (problems.length > 0) throw refuse(problems);
  if (skipped.size > 0) {
    warnings.push(`kinds the report does not read were skipped: ${[...skipped.entries()].map(([kind, n]) => `${kind} (${n})`).join(", ")}`);
  }
  const unread: UnreadKind[] = STATE_KINDS.filter((k) => !k.required && objects.byKind[k.kind].length === 0).map((k) => ({
    kind: k.kind,
    reason: "none in the file",
  }));
  return { ...objects, unread, warnings };
}
