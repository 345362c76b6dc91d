/**
 * The cron dialect of a disruption budget's schedule: Karpenter parses it with robfig/cron's ParseStandard
 * (prefixed "TZ=UTC "), five fields or a macro. The CRD pattern only counts fields, and a schedule that does
 * not parse makes the budget fail closed: Karpenter logs "invariant violated, invalid cron" and disrupts no
 * node for that budget's reasons, which looks like a stuck cluster, not a config mistake.
 * @see https://github.com/kubernetes-sigs/karpenter/blob/main/pkg/apis/v1/nodepool.go (Budget.IsActive)
 * @see https://pkg.go.dev/github.com/robfig/cron/v3#ParseStandard
 */

const MACROS = ["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"];

interface CronField {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

const FIELDS: readonly CronField[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: MONTHS },
  { name: "day of week", min: 0, max: 6, names: DAYS },
];

/** strconv.Atoi's non-negative integers: digits with an optional "+". */
const NUMBER = /^\+?[0-9]+$/;

/** A number or, where the field has names, a name (any case): robfig's parseIntOrName. */
function fieldValue(text: string, field: CronField): number | string {
  const named = field.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return field.name === "month" ? named + 1 : named;
  if (!NUMBER.test(text)) return `"${text}" is not a number${field.names ? " or a name" : ""}`;
  return Number(text);
}

/** The problem with one comma-separated part of a field ("1-5", "*\/15", "mon"), or undefined. */
function rangeProblem(part: string, field: CronField): string | undefined {
  const [range, step, ...extra] = part.split("/");
  if (extra.length > 0) return `"${part}" has more than one '/'`;
  const bounds = range.split("-");
  // robfig tests the first bound for "*" before it counts hyphens, and ignores what follows it ("*-5").
  const any = bounds[0] === "*" || bounds[0] === "?";
  if (!any && bounds.length > 2) return `"${part}" has more than one '-'`;
  let start: number;
  let end: number;
  if (any) {
    [start, end] = [field.min, field.max];
  } else {
    const low = fieldValue(bounds[0], field);
    if (typeof low === "string") return low;
    const high = bounds.length === 2 ? fieldValue(bounds[1], field) : low;
    if (typeof high === "string") return high;
    [start, end] = [low, high];
  }
  if (step !== undefined) {
    if (!NUMBER.test(step) || Number(step) === 0) return `the step in "${part}" must be a positive number`;
    // "5/10" means from 5 to the end, every 10.
    if (bounds.length === 1 && !any) end = field.max;
  }
  if (start < field.min || end > field.max) return `"${part}" is outside ${field.min}-${field.max}`;
  if (start > end) return `"${part}" starts after it ends`;
  return undefined;
}

/** What is wrong with a budget schedule, in words, or undefined when Karpenter can parse it. */
export function cronScheduleProblem(schedule: string): string | undefined {
  // Go's whitespace (strings.Fields, strings.TrimSpace) for what separates fields: ASCII, not JavaScript's \s.
  const spec = schedule.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, "");
  if (spec.startsWith("@")) return MACROS.includes(spec) ? undefined : `"${spec}" is not one of the macros ${MACROS.join(", ")}`;
  const fields = spec.split(/[\t\n\v\f\r ]+/);
  if (fields.length !== 5) {
    return `has ${fields.length} fields; Karpenter's cron has exactly 5 (minute hour day-of-month month day-of-week), no seconds and no time zone (schedules are UTC)`;
  }
  for (const [i, text] of fields.entries()) {
    // strings.FieldsFunc in robfig's getField drops empty parts: "0,30," is "0,30".
    for (const part of text.split(",").filter((p) => p !== "")) {
      const problem = rangeProblem(part, FIELDS[i]);
      if (problem !== undefined) return `the ${FIELDS[i].name} field: ${problem}`;
    }
  }
  return undefined;
}

/** The values of one field a valid spec admits, and whether the field was a star ("*" or "?", with no step). */
function fieldValues(text: string, field: CronField): { readonly values: ReadonlySet<number>; readonly star: boolean } {
  const values = new Set<number>();
  let star = false;
  for (const part of text.split(",").filter((p) => p !== "")) {
    const [range, step] = part.split("/");
    const bounds = range.split("-");
    const any = bounds[0] === "*" || bounds[0] === "?";
    const low = any ? field.min : (fieldValue(bounds[0], field) as number);
    let high = any ? field.max : bounds.length === 2 ? (fieldValue(bounds[1], field) as number) : low;
    if (step !== undefined && bounds.length === 1 && !any) high = field.max;
    if (any && step === undefined) star = true;
    for (let v = low; v <= high; v += step === undefined ? 1 : Number(step)) values.add(v);
  }
  return { values, star };
}

const MACRO_SPECS: Readonly<Record<string, string>> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

/**
 * Whether a budget with this schedule and duration is active at `now`: some time the schedule fires (UTC, to
 * the minute) falls in (now - duration, now], as robfig's Next from now - duration reaches it. Day of month and
 * day of week both restricted match either one (Vixie cron, as robfig's dayMatches). The schedule must be valid.
 * @see kubernetes-sigs/karpenter v1.14.1 pkg/apis/v1/nodepool.go (Budget.IsActive)
 */
export function budgetScheduleActive(schedule: string, durationMinutes: number, now: Date): boolean {
  const spec = schedule.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, "");
  const fields = (MACRO_SPECS[spec] ?? spec).split(/[\t\n\v\f\r ]+/).map((text, i) => fieldValues(text, FIELDS[i]));
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields;
  const fires = (t: Date) => {
    const dom = dayOfMonth.values.has(t.getUTCDate());
    const dow = dayOfWeek.values.has(t.getUTCDay());
    const day = dayOfMonth.star || dayOfWeek.star ? dom && dow : dom || dow;
    return minute.values.has(t.getUTCMinutes()) && hour.values.has(t.getUTCHours()) && month.values.has(t.getUTCMonth() + 1) && day;
  };
  const last = Math.floor(now.getTime() / 60_000) * 60_000;
  // The first whole minute after now - duration: Next is strictly after its starting point.
  const first = Math.floor((now.getTime() - durationMinutes * 60_000) / 60_000) * 60_000 + 60_000;
  for (let t = last; t >= first; t -= 60_000) if (fires(new Date(t))) return true;
  return false;
}
