import { CORE_SCHEMA, load, loadAll, mergeTag, YAMLException } from "js-yaml";
import { excerpt } from "./format-issues";
import { MAX_YAML_ALIASES } from "./untrusted-file";

// The documents of a manifest file (a workload, a saved cluster state), parsed as kubectl reads them. Each
// document is parsed on its own (split at its "---" line), so one broken document does not hide the problems of
// the next, and so that a problem names its document and line. js-yaml, because workloads run to tens of thousands of documents: it parses
// them about ten times faster than the yaml package the cluster config uses.
//
// kubectl turns YAML into JSON with sigs.k8s.io/yaml's non-strict decoder, which keeps the last of a
// repeated key without a word, and it takes YAML 1.1's merge keys (<<). The planner takes both too, and says
// when a key repeats. Aliases are capped: a document that expands one anchor into millions of copies is
// refused, not expanded.
// @see https://github.com/kubernetes-sigs/yaml (YAMLToJSON: duplicate keys are not an error)

const SCHEMA = CORE_SCHEMA.withTags(mergeTag);

/**
 * How many more nodes a document may have expanded than written. js-yaml shares an anchored value between
 * its aliases instead of copying it, but whatever walks the document (or prints a value of it in a message)
 * would see every copy: nine aliases of nine aliases of ... are millions of nodes.
 */
const MAX_ALIAS_EXPANSION = 10_000;

/** Whether the value, every alias expanded, has more than MAX_ALIAS_EXPANSION mappings and lists beyond those written. */
function expandsTooMuch(value: unknown): boolean {
  const expanded = new Map<object, number>();
  const size = (node: unknown): number => {
    if (node === null || typeof node !== "object") return 0;
    const known = expanded.get(node);
    if (known !== undefined) return known;
    let total = 1;
    for (const child of Object.values(node)) total += size(child);
    expanded.set(node, total);
    return total;
  };
  return size(value) - expanded.size > MAX_ALIAS_EXPANSION;
}

/** What a reader does with a document nested deeper than js-yaml parses (maxDepth 100), by its kind: skip it, or not. */
export type SkipTooDeep = (kind: string | undefined, apiVersion: string | undefined) => boolean;

/** The top-level `kind:` and `apiVersion:` lines of a YAML document, read without parsing it. */
const TOP_LEVEL = { kind: /^kind:[ \t]*["']?([^"'#\s]+)["']?[ \t]*(#.*)?$/m, apiVersion: /^apiVersion:[ \t]*["']?([^"'#\s]+)["']?[ \t]*(#.*)?$/m };
const topLevel = (text: string, key: keyof typeof TOP_LEVEL): string | undefined => TOP_LEVEL[key].exec(text)?.[1];

export interface ParsedDocument {
  /** 1-based, in the file. */
  readonly index: number;
  /** The document's value; undefined when it failed to parse (a problem says why). */
  readonly value: unknown;
  /** True when the document holds nothing (only comments, or nothing between two "---"). */
  readonly empty: boolean;
}

interface Chunk {
  readonly text: string;
  /** The 1-based line of the file where the chunk starts. */
  readonly line: number;
  /** The chunk before the first "---": a document only when it holds something. */
  readonly prelude: boolean;
}

const DOCUMENT_START = /^---(\s|$)/;
const DOCUMENT_END = /^\.\.\.(\s|$)/;
const BLANK = /^\s*(#.*)?$/;

function chunks(text: string): Chunk[] {
  const lines = text.split("\n");
  const found: Chunk[] = [];
  let start = 0;
  let prelude = true;
  const close = (end: number) => found.push({ text: lines.slice(start, end).join("\n"), line: start + 1, prelude });
  lines.forEach((line, i) => {
    if (DOCUMENT_START.test(line)) {
      close(i);
      // What follows the marker on its line ("--- # comment", "--- !tag") belongs to the document.
      lines[i] = line.slice(3);
      start = i;
      prelude = false;
    } else if (DOCUMENT_END.test(line)) lines[i] = "";
  });
  close(lines.length);
  return found.filter((c) => !c.prelude || !c.text.split("\n").every((l) => BLANK.test(l) || l.startsWith("%")));
}

/** "line 12, column 3" of the file, from a mark inside a chunk. */
const where = (chunk: Chunk, error: YAMLException) => `line ${chunk.line + (error.mark?.line ?? 0)}, column ${(error.mark?.column ?? 0) + 1}`;

/** A chunk's value; `lastKeyWins` parses again after a repeated key, keeping the last value as kubectl does. */
function parseChunk(chunk: Chunk, file: string, problems: string[], warnings: string[], skipTooDeep: SkipTooDeep | undefined, lastKeyWins = false): unknown {
  const options = { schema: SCHEMA, maxAliases: MAX_YAML_ALIASES, filename: file, json: lastKeyWins };
  try {
    const value = load(chunk.text, options);
    // No "*" in the text, no alias to expand.
    if (!chunk.text.includes("*") || !expandsTooMuch(value)) return value;
    problems.push(
      `${file}: line ${chunk.line}: its aliases (*name) expand to more than ${MAX_ALIAS_EXPANSION} copies of what they name: refused as a possible alias bomb; write the repeated values out`,
    );
    return undefined;
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    if (!lastKeyWins && error.reason.startsWith("duplicated mapping key")) {
      const line = chunk.text.split("\n")[error.mark?.line ?? 0]?.trim() ?? "";
      warnings.push(
        `${file}: ${where(chunk, error)}: "${excerpt(line)}" repeats a key of the same mapping; the last value is used, as kubectl apply does (it drops the earlier one before sending)`,
      );
      return parseChunk(chunk, file, problems, warnings, skipTooDeep, true);
    }
    if (error.reason.startsWith("nesting exceeded maxDepth")) {
      const [kind, apiVersion] = [topLevel(chunk.text, "kind"), topLevel(chunk.text, "apiVersion")];
      if (skipTooDeep?.(kind, apiVersion) === true) {
        warnings.push(
          `${file}: line ${chunk.line}: a ${kind} nested deeper than the parser reads (${error.reason}); the planner does not read that kind, so it was skipped`,
        );
        return { kind, apiVersion, skipped: true };
      }
    }
    const reason = error.reason.startsWith("aliases exceeded")
      ? `more than ${MAX_YAML_ALIASES} aliases in one document (an alias bomb is refused, not expanded)`
      : error.reason;
    problems.push(`${file}: ${where(chunk, error)}: ${reason}`);
    return undefined;
  }
}

/** The whole file at once, the fast way, or undefined when it needs a closer look (an error, a repeated key, aliases). */
function parseWhole(text: string, file: string, expected: number): unknown[] | undefined {
  if (text.includes("*")) return undefined;
  try {
    const values = loadAll(text, { schema: SCHEMA, maxAliases: MAX_YAML_ALIASES, filename: file });
    return values.length === expected ? values : undefined;
  } catch (error) {
    if (error instanceof YAMLException) return undefined;
    throw error;
  }
}

/**
 * The documents of a file's text; problems and warnings name the file and line. A document too deeply nested
 * to parse is a problem, unless `skipTooDeep` says its kind (read off its top-level lines) may be skipped: it is
 * then a warning, and the document comes as its kind and apiVersion alone.
 */
export function parseDocuments(text: string, file: string, problems: string[], warnings: string[], skipTooDeep?: SkipTooDeep): ParsedDocument[] {
  const found = chunks(text);
  // Most files are well formed: one parse of the whole file. Otherwise each document on its own, so that
  // every problem is found and named by its line.
  const whole = parseWhole(text, file, found.length);
  return found.map((chunk, i) => {
    if (whole !== undefined) return { index: i + 1, value: whole[i], empty: whole[i] === null || whole[i] === undefined };
    if (chunk.text.split("\n").every((l) => BLANK.test(l))) return { index: i + 1, value: null, empty: true };
    const before = problems.length;
    const value = parseChunk(chunk, file, problems, warnings, skipTooDeep);
    return { index: i + 1, value: problems.length > before ? undefined : value, empty: value === null || value === undefined };
  });
}
