import { closestNames } from "../../shared/closest-names";
import { InputError } from "../../shared/input-error";
import { parseRfc3339 } from "../../shared/rfc3339";

// A replica curve: CSV rows `time,workload,replicas`, a workload's replicas holding from its row until its next.
// Time is seconds from the start (0, 90, 3600) or RFC 3339 (2026-11-29T08:00:00Z), one form for the whole file;
// the workload is `namespace/Kind/name` as the plan names it. A header row, blank lines and `#` comments are
// skipped. Every problem is reported at once, each with its line; nothing is replayed from a curve with one.

export interface CurveRow {
  readonly line: number;
  /** Seconds from the curve's first time. */
  readonly t: number;
  readonly workload: string;
  readonly replicas: number;
}

export interface ReplicaCurve {
  /** The first row's time where the curve gives RFC 3339 times; undefined for seconds from the start. */
  readonly start: Date | undefined;
  /** In time order. */
  readonly rows: readonly CurveRow[];
}

/** A month: a day at one-second resolution for 31 days is the most the replay is asked for. */
export const MAX_CURVE_SECONDS = 31 * 86_400;
/** A workload's replicas: beyond any Deployment a cluster runs, and what keeps the counts exact. */
export const MAX_REPLICAS = 1_000_000;
/** Problems listed before "and N more": a file wrong on every line is told in a screenful. */
const MAX_LISTED = 50;

const SECONDS = /^[0-9]+(\.[0-9]+)?$/;
const WORKLOAD = /^[^/\s]+\/[^/\s]+\/[^/\s]+$/;
const TIME_EXPECTED = "must be seconds from the start (0, 90, 3600) or an RFC 3339 time (2026-11-29T08:00:00Z)";

function replicasProblem(text: string): string | undefined {
  if (/^[0-9]+$/.test(text)) return Number(text) > MAX_REPLICAS ? `is more than ${MAX_REPLICAS.toLocaleString("en-US")}` : undefined;
  if (/^-[0-9]+(\.[0-9]+)?$/.test(text)) return "is negative; replicas are a whole number from 0";
  if (/^[0-9]*\.[0-9]+$/.test(text)) return "is fractional; replicas are a whole number from 0";
  return "is not a number; replicas are a whole number from 0";
}

function unknownWorkload(name: string, known: ReadonlySet<string>): string {
  const close = closestNames(name, known);
  const hint =
    close.length > 0 ? `closest: ${close.join(", ")}` : `the workload has ${[...known].sort().slice(0, 5).join(", ")}${known.size > 5 ? ", ..." : ""}`;
  return `workload "${name}" is not in the workload (${hint})`;
}

/** The curve, or an InputError with every problem of it, each on its line. `known`: the workloads' names. */
export function parseReplicaCurve(text: string, source: string, known: ReadonlySet<string>): ReplicaCurve {
  const problems: string[] = [];
  const rows: { line: number; time: number; workload: string; replicas: number }[] = [];
  let form: "seconds" | "rfc3339" | undefined;
  let headerAllowed = true;
  const lines = text.split("\n");
  lines.forEach((raw, index) => {
    const line = index + 1;
    const content = raw.replace(/\r$/, "").trim();
    if (content === "" || content.startsWith("#")) return;
    const fields = content.split(",").map((f) => f.trim());
    if (headerAllowed && fields.join(",").toLowerCase() === "time,workload,replicas") {
      headerAllowed = false;
      return;
    }
    headerAllowed = false;
    if (fields.length !== 3) {
      problems.push(`line ${line}: ${JSON.stringify(content)} has ${fields.length} fields; each row is time,workload,replicas`);
      return;
    }
    const [timeText, workload, replicasText] = fields;
    let time: number | undefined;
    const wallClock = SECONDS.test(timeText) ? undefined : parseRfc3339(timeText);
    const thisForm = SECONDS.test(timeText) ? "seconds" : wallClock !== undefined ? "rfc3339" : undefined;
    if (thisForm === undefined) problems.push(`line ${line}: time ${JSON.stringify(timeText)} ${TIME_EXPECTED}`);
    else if (form !== undefined && thisForm !== form)
      problems.push(
        `line ${line}: time ${JSON.stringify(timeText)} is ${thisForm === "seconds" ? "in seconds" : "RFC 3339"}, but the curve's first row gave ${form === "seconds" ? "seconds" : "RFC 3339 times"}; use one form throughout`,
      );
    else {
      form = thisForm;
      time = thisForm === "seconds" ? Number(timeText) : (wallClock as Date).getTime() / 1000;
    }
    const workloadOk = WORKLOAD.test(workload);
    if (!workloadOk)
      problems.push(`line ${line}: workload ${JSON.stringify(workload)} must be namespace/Kind/name, as the plan names it (shop/Deployment/cart)`);
    else if (!known.has(workload)) problems.push(`line ${line}: ${unknownWorkload(workload, known)}`);
    const bad = replicasProblem(replicasText);
    if (bad !== undefined) problems.push(`line ${line}: replicas ${JSON.stringify(replicasText)} ${bad}`);
    if (time !== undefined && workloadOk && bad === undefined) rows.push({ line, time, workload, replicas: Number(replicasText) });
  });
  if (rows.length === 0 && problems.length === 0) problems.push("no rows: a curve gives at least one time,workload,replicas row");
  const seen = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const before = rows[i - 1];
    if (before !== undefined && row.time < before.time)
      problems.push(
        `line ${row.line}: time goes back (${timeText(row.time, form)} after ${timeText(before.time, form)} on line ${before.line}); rows are in time order`,
      );
    const key = `${row.time}\0${row.workload}`;
    const first = seen.get(key);
    if (first !== undefined)
      problems.push(`line ${row.line}: ${row.workload} at ${timeText(row.time, form)} is given again (first on line ${first}); one row per workload and time`);
    else seen.set(key, row.line);
  }
  const first = rows[0];
  const last = rows[rows.length - 1];
  // Seconds count from 0, the start, whatever the first row says; wall-clock times from the first row.
  const origin = form === "rfc3339" ? first?.time : 0;
  const late = origin === undefined ? undefined : rows.find((r) => r.time - origin > MAX_CURVE_SECONDS);
  if (late !== undefined && form === "seconds")
    problems.push(`line ${late.line}: time ${late.time} s is ${formatSpan(late.time)} from the start; at most 31 days (${MAX_CURVE_SECONDS} s) are replayed`);
  else if (first !== undefined && last.time - first.time > MAX_CURVE_SECONDS)
    problems.push(`lines ${first.line}-${last.line}: the curve spans ${formatSpan(last.time - first.time)}; at most 31 days are replayed`);
  if (problems.length > 0) {
    // In line order, whichever check found them: a person fixes a file from the top.
    const lineOf = (p: string) => Number(/^lines? (\d+)/.exec(p)?.[1] ?? 0);
    problems.sort((a, b) => lineOf(a) - lineOf(b));
    const listed = problems.length > MAX_LISTED ? [...problems.slice(0, MAX_LISTED), `and ${problems.length - MAX_LISTED} more`] : problems;
    throw new InputError(source, listed);
  }
  return {
    start: form === "rfc3339" ? new Date(first.time * 1000) : undefined,
    rows: rows.map((r) => ({ line: r.line, t: r.time - (origin ?? 0), workload: r.workload, replicas: r.replicas })),
  };
}

function timeText(time: number, form: "seconds" | "rfc3339" | undefined): string {
  return form === "rfc3339" ? new Date(time * 1000).toISOString() : `${time} s`;
}

function formatSpan(seconds: number): string {
  return `${(seconds / 86_400).toFixed(1)} days`;
}
