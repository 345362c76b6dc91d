import type { z } from "zod";

/** "nodePools[0].limits.cpu" from ["nodePools", 0, "limits", "cpu"]; "(root)" for the file itself. */
export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  return path.reduce<string>((acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc === "" ? String(key) : `${acc}.${String(key)}`), "");
}

/**
 * The most characters of a user's value a message quotes: one problem stays on one line, and a file that is
 * not what it was named as (a secret, /etc/passwd) is not echoed back.
 */
const EXCERPT_LENGTH = 60;

/** Text cut to EXCERPT_LENGTH characters, "..." marking the cut. */
export function excerpt(text: string): string {
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 3)}...` : text;
}

/** A short rendering of the offending value: JSON, cut to keep one problem on one line. */
export function formatValue(value: unknown): string {
  if (value === undefined) return "nothing";
  // JSON would print null: YAML reads 1e400 as Infinity and .nan as NaN.
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return excerpt(JSON.stringify(value) ?? String(value));
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  array: "a list",
  object: "a mapping",
  record: "a mapping",
  int: "an integer",
};

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "number" && Number.isNaN(value)) return "not a number";
  if (typeof value === "number" && !Number.isFinite(value)) return "a number too large to hold, such as 1e400";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "a mapping" : typeof value;
}

/** Zod's own messages ("Invalid input: ...") are replaced by ours; the schema's custom messages are kept. */
function isZodDefault(message: string): boolean {
  return /^(Invalid input|Invalid option|Too small|Too big|Invalid string|Invalid element|Invalid key|Unrecognized key)/.test(message);
}

/**
 * One line per problem: `<path>: got <value>; <what is allowed>`. Unknown keys get one line each.
 * Type errors on missing fields read "missing; ...".
 */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    const path = formatPath(issue.path);
    const input = (issue as { input?: unknown }).input;
    switch (issue.code) {
      case "unrecognized_keys":
        for (const key of issue.keys)
          lines.push(
            `${formatPath([...issue.path, key])}: unknown key; ${isZodDefault(issue.message) ? "remove it" : issue.message.replace(/^is not a known key; /, "")}`,
          );
        break;
      case "invalid_type": {
        const expected = isZodDefault(issue.message) ? `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}` : issue.message;
        lines.push(
          input === undefined
            ? `${path}: missing; required, ${expected.replace(/^must be /, "")}`
            : `${path}: got ${formatValue(input)} (${describeType(input)}); ${expected}`,
        );
        break;
      }
      case "invalid_value":
        lines.push(
          `${path}: got ${formatValue(input)}; ${isZodDefault(issue.message) ? `allowed: ${issue.values.map((v) => String(v)).join(", ")}` : issue.message}`,
        );
        break;
      case "too_small":
      case "too_big": {
        const bound = issue.code === "too_small" ? `at least ${issue.minimum}` : `at most ${issue.maximum}`;
        const unit = issue.origin === "array" ? " items" : issue.origin === "string" ? " characters" : "";
        lines.push(`${path}: got ${formatValue(input)}; ${isZodDefault(issue.message) ? `must be ${bound}${unit}` : issue.message}`);
        break;
      }
      case "invalid_key":
      case "invalid_element":
        // A record key (or map element) failed its own schema: its first message says why.
        lines.push(
          `${path}: got ${formatValue(issue.code === "invalid_key" ? issue.path[issue.path.length - 1] : input)}; ${issue.issues[0]?.message ?? issue.message}`,
        );
        break;
      default:
        lines.push(`${path}: ${input === undefined ? "missing" : `got ${formatValue(input)}`}; ${issue.message}`);
    }
  }
  return lines;
}
