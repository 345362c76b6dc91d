import { isRecord, type Report } from "./raw-object";
import type { LabelSelector } from "./workload-model";

// Kubernetes label selectors: matchLabels ANDed with matchExpressions (In, NotIn, Exists, DoesNotExist).
// @see https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#resources-that-support-set-based-requirements

const OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist"] as const;

/** Whether a pod's labels satisfy the selector. */
export function selects(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  for (const [key, value] of Object.entries(selector.matchLabels)) if (labels[key] !== value) return false;
  for (const e of selector.matchExpressions) {
    const value = labels[e.key];
    const ok =
      e.operator === "In"
        ? value !== undefined && e.values.includes(value)
        : e.operator === "NotIn"
          ? value === undefined || !e.values.includes(value)
          : e.operator === "Exists"
            ? value !== undefined
            : value === undefined;
    if (!ok) return false;
  }
  return true;
}

/** A selector with requirements added (matchLabelKeys adds the incoming pod's own values). */
export function withLabels(selector: LabelSelector, labels: Readonly<Record<string, string>>): LabelSelector {
  return { matchLabels: { ...selector.matchLabels, ...labels }, matchExpressions: selector.matchExpressions };
}

/** "app=web, tier in (a, b)": a selector for people. */
export function formatSelector(selector: LabelSelector | undefined): string {
  if (selector === undefined) return "(no selector)";
  const parts = [
    ...Object.entries(selector.matchLabels).map(([k, v]) => `${k}=${v}`),
    ...selector.matchExpressions.map((e) =>
      e.operator === "Exists" ? e.key : e.operator === "DoesNotExist" ? `!${e.key}` : `${e.key} ${e.operator.toLowerCase()} (${e.values.join(", ")})`,
    ),
  ];
  return parts.length === 0 ? "(every pod)" : parts.join(", ");
}

/** A labelSelector as written, or undefined (absent: the term selects nothing); problems go to `report`. */
export function labelSelectorOf(value: unknown, path: string, report: Report): LabelSelector | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) {
    report(path, value, "must be a label selector {matchLabels, matchExpressions}");
    return undefined;
  }
  const matchLabels: Record<string, string> = {};
  if (value.matchLabels !== undefined) {
    if (!isRecord(value.matchLabels)) report(`${path}.matchLabels`, value.matchLabels, "must be a mapping of label keys to values");
    else
      for (const [key, v] of Object.entries(value.matchLabels)) {
        if (typeof v === "string") matchLabels[key] = v;
        else report(`${path}.matchLabels.${key}`, v, "must be a string (quote numbers and booleans in YAML)");
      }
  }
  const matchExpressions: LabelSelector["matchExpressions"][number][] = [];
  if (value.matchExpressions !== undefined) {
    if (!Array.isArray(value.matchExpressions)) report(`${path}.matchExpressions`, value.matchExpressions, "must be a list of {key, operator, values}");
    else
      for (const [i, e] of value.matchExpressions.entries()) {
        const where = `${path}.matchExpressions[${i}]`;
        if (!isRecord(e) || typeof e.key !== "string") report(`${where}.key`, isRecord(e) ? e.key : e, "must be a label key");
        else if (!(OPERATORS as readonly unknown[]).includes(e.operator)) report(`${where}.operator`, e.operator, `must be one of ${OPERATORS.join(", ")}`);
        else if (!Array.isArray(e.values ?? []) || !((e.values ?? []) as unknown[]).every((v) => typeof v === "string"))
          report(`${where}.values`, e.values, "must be a list of strings");
        else matchExpressions.push({ key: e.key, operator: e.operator as (typeof OPERATORS)[number], values: (e.values ?? []) as string[] });
      }
  }
  return { matchLabels, matchExpressions };
}
