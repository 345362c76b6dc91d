import { LineCounter, parseDocument } from "yaml";
import { InputError } from "../shared/input-error";
import { decodeUtf8, MAX_YAML_ALIASES, readAtMost, readFailure } from "../shared/untrusted-file";

// Reading one cluster file into a plain mapping, refusing what is broken or hostile with one line each:
// nothing here trusts the file's size, its encoding or its aliases, and no error carries a stack trace.

/** The environment variable naming the cluster file; without it the embedded default cluster is used. */
export const CLUSTER_CONFIG_ENV = "CLUSTER_CONFIG";

/** A cluster file is a few kilobytes; a larger one is refused before it is parsed (or read past this). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * How many copies aliases may expand to (the yaml package's maxAliasCount, whose default this is): enough for
 * a taint or a label set reused across pools, far too few for an alias bomb ("billion laughs").
 */

const A_MAPPING = 'a cluster config is a YAML or JSON mapping with at least a name, such as "name: my-cluster"';

/**
 * The mapping a cluster file holds, ready for the schema; throws InputError naming the file and the
 * problem: unreadable, over MAX_CONFIG_BYTES, not UTF-8, YAML errors with line and column, an alias bomb,
 * or no mapping at the top (empty, null, a list, a scalar).
 */
export function readConfigDocument(path: string): Readonly<Record<string, unknown>> {
  const refuse = (problem: string) => new InputError(path, [problem]);
  const bytes = readBytes(path, refuse);
  if (bytes.length > MAX_CONFIG_BYTES) {
    throw refuse(`the file is larger than 1 MiB (${MAX_CONFIG_BYTES} bytes), the most a cluster config may be; it was not parsed`);
  }
  const decoded = decodeUtf8(bytes);
  if ("badLine" in decoded) throw refuse(decoded.problem);
  const { text } = decoded;
  if (text.trim() === "") throw refuse(`the file is empty; ${A_MAPPING}`);
  const value = parseYaml(text, path);
  if (value === null || value === undefined) throw refuse(`the document is null (only comments, "null" or "~"); ${A_MAPPING}`);
  if (Array.isArray(value)) throw refuse(`the document is a list, not a mapping; ${A_MAPPING}`);
  // Not quoted: a file that is not a cluster config at all (/etc/passwd) is not echoed back.
  if (!isMapping(value)) throw refuse(`the document is a single ${typeof value}, not a mapping; ${A_MAPPING}`);
  return value;
}

function isMapping(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The file's first MAX_CONFIG_BYTES + 1 bytes; a file that cannot be read is the user's problem, in words. */
function readBytes(path: string, refuse: (problem: string) => InputError): Buffer {
  try {
    return readAtMost(path, MAX_CONFIG_BYTES);
  } catch (error) {
    const reason = readFailure(error);
    if (reason === undefined) throw error;
    throw refuse(`cannot read the cluster config (${reason}); ${CLUSTER_CONFIG_ENV} must name a readable YAML or JSON file`);
  }
}

/**
 * YAML (JSON is YAML too) to plain values. Syntax errors, duplicate keys included, are reported with their
 * line and column; the conversion's own errors (aliases) in one line each.
 */
function parseYaml(text: string, path: string): unknown {
  const lineCounter = new LineCounter();
  // merge: YAML 1.1's "<<: *base" merge keys, the usual way to reuse an anchored pool; off by default in 1.2.
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, merge: true });
  if (document.errors.length > 0) {
    throw new InputError(
      path,
      document.errors.map((e) => {
        const { line, col } = lineCounter.linePos(e.pos[0]);
        return `line ${line}, column ${col}: ${e.message.split("\n")[0]}`;
      }),
    );
  }
  try {
    return document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    // The yaml package's own wording for maxAliasCount; a test pins it.
    const problem = error.message.startsWith("Excessive alias count")
      ? `its aliases (*name) would expand to more than ${MAX_YAML_ALIASES} copies of what they name: refused as a possible alias bomb; write the repeated values out`
      : `the YAML cannot be read: ${error.message.split("\n")[0]}`;
    throw new InputError(path, [problem]);
  }
}
