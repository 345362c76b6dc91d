import type { Requirement } from "../../instance-catalogue/requirements";
import { bytes, cpuMillis, parseQuantity } from "../../shared/quantity";
import { isRequirementOperator, REQUIREMENT_OPERATORS } from "../../shared/vocabulary/requirement-operators";
import type { PodShape, Toleration } from "./workload-model";

// A pod spec (a template's `spec`) into the scheduler's view of it. Requests follow Kubernetes: a container
// with limits and no requests requests its limits; init containers run one at a time before the others, and
// restartable init containers (sidecars, restartPolicy: Always) keep running beside everything after them.
// @see https://kubernetes.io/docs/concepts/workloads/pods/sidecar-containers/#resource-sharing-within-containers

export type Report = (path: string, value: unknown, message: string) => void;

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

interface Amounts {
  cpu: number;
  memory: number;
  extended: Record<string, number>;
}

const zero = (): Amounts => ({ cpu: 0, memory: 0, extended: {} });

function combine(a: Amounts, b: Amounts, op: (x: number, y: number) => number): Amounts {
  const extended: Record<string, number> = {};
  for (const key of new Set([...Object.keys(a.extended), ...Object.keys(b.extended)])) extended[key] = op(a.extended[key] ?? 0, b.extended[key] ?? 0);
  return { cpu: op(a.cpu, b.cpu), memory: op(a.memory, b.memory), extended };
}

const add = (a: Amounts, b: Amounts) => combine(a, b, (x, y) => x + y);
const max = (a: Amounts, b: Amounts) => combine(a, b, Math.max);

/** Resources the planner does not pack; requesting them is fine and changes nothing here. */
const IGNORED_RESOURCES = new Set(["ephemeral-storage"]);

/** What each resource's quantity must look like, for the message when it does not. */
function expectedQuantity(name: string): string {
  if (name === "cpu") return 'must be a CPU quantity such as "250m" or "1"';
  if (name === "memory") return 'must be a memory quantity such as "512Mi" or "1Gi"';
  return `must be a quantity of ${name} such as "1"`;
}

/**
 * A request or limit in its unit (millicores, bytes, a count), or undefined after reporting why not. The API
 * server refuses a negative request or limit, so the planner does too: counted, it would free room on a node.
 */
function quantityOf(name: string, value: unknown, where: string, report: Report): number | undefined {
  const text = typeof value === "number" || typeof value === "string" ? value : undefined;
  const parsed = text === undefined ? undefined : name === "cpu" ? cpuMillis(text) : name === "memory" ? bytes(text) : parseQuantity(text);
  if (parsed === undefined) report(where, value, expectedQuantity(name));
  else if (parsed < 0) report(where, value, "must not be negative");
  else return parsed;
  return undefined;
}

/** One container's requests, with its limits standing in for requests it does not set (API server defaulting). */
function containerRequests(container: Raw, path: string, report: Report): { amounts: Amounts; requested: boolean } {
  const resources = container.resources;
  if (resources !== undefined && !isRecord(resources)) {
    report(`${path}.resources`, resources, "must be a mapping with requests and limits");
    return { amounts: zero(), requested: false };
  }
  const merged: Raw = {};
  for (const part of ["limits", "requests"] as const) {
    const block = resources?.[part];
    if (block === undefined || block === null) continue;
    if (!isRecord(block)) {
      report(`${path}.resources.${part}`, block, "must be a mapping of resource names to quantities");
      continue;
    }
    for (const [name, value] of Object.entries(block)) merged[name] = { value, path: `${path}.resources.${part}.${name}` };
  }
  const amounts = zero();
  let requested = false;
  for (const [name, entry] of Object.entries(merged)) {
    const { value, path: where } = entry as { value: unknown; path: string };
    if (IGNORED_RESOURCES.has(name)) continue;
    const parsed = quantityOf(name, value, where, report);
    if (name === "cpu" || name === "memory") requested = true;
    if (parsed === undefined) continue;
    if (name === "cpu") amounts.cpu = parsed;
    else if (name === "memory") amounts.memory = parsed;
    else amounts.extended[name] = parsed;
  }
  return { amounts, requested };
}

function containers(spec: Raw, field: "containers" | "initContainers", path: string, report: Report): Raw[] {
  const list = spec[field];
  if (list === undefined && field === "initContainers") return [];
  if (!Array.isArray(list) || (field === "containers" && list.length === 0)) {
    report(`${path}.${field}`, list, field === "containers" ? "must list at least one container" : "must be a list of containers");
    return [];
  }
  return list.filter((c, i) => {
    if (isRecord(c)) return true;
    report(`${path}.${field}[${i}]`, c, "must be a container (a mapping)");
    return false;
  });
}

function requirementsOf(expressions: unknown, path: string, report: Report): Requirement[] {
  if (expressions === undefined) return [];
  if (!Array.isArray(expressions)) {
    report(path, expressions, "must be a list of {key, operator, values}");
    return [];
  }
  const result: Requirement[] = [];
  for (const [i, e] of expressions.entries()) {
    const where = `${path}[${i}]`;
    if (!isRecord(e) || typeof e.key !== "string") report(`${where}.key`, isRecord(e) ? e.key : e, "must be a label key");
    else if (!isRequirementOperator(e.operator)) report(`${where}.operator`, e.operator, `must be one of ${REQUIREMENT_OPERATORS.join(", ")}`);
    else if (!Array.isArray(e.values ?? []) || !((e.values ?? []) as unknown[]).every((v) => typeof v === "string"))
      report(`${where}.values`, e.values, "must be a list of strings");
    else result.push({ key: e.key, operator: e.operator, values: (e.values ?? []) as string[] });
  }
  return result;
}

function affinityTerms(spec: Raw, path: string, report: Report): Requirement[][] {
  const required = (spec.affinity as Raw | undefined)?.nodeAffinity as Raw | undefined;
  const selector = required?.requiredDuringSchedulingIgnoredDuringExecution as Raw | undefined;
  if (selector === undefined) return [];
  const where = `${path}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
  const terms = selector.nodeSelectorTerms;
  if (!Array.isArray(terms)) {
    report(where, terms, "must be a list of terms");
    return [];
  }
  return terms.map((term, i) => {
    if (isRecord(term) && term.matchFields !== undefined)
      report(`${where}[${i}].matchFields`, term.matchFields, "is not supported by the planner (it selects one node by name)");
    return requirementsOf(isRecord(term) ? term.matchExpressions : term, `${where}[${i}].matchExpressions`, report);
  });
}

function tolerationsOf(spec: Raw, path: string, report: Report): Toleration[] {
  const list = spec.tolerations;
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    report(`${path}.tolerations`, list, "must be a list of tolerations");
    return [];
  }
  return list.filter((t, i): t is Toleration => {
    if (isRecord(t) && (t.operator === undefined || t.operator === "Equal" || t.operator === "Exists")) return true;
    report(`${path}.tolerations[${i}]`, t, "must be a toleration {key, operator: Equal or Exists, value, effect}");
    return false;
  });
}

/** The scheduler's view of a pod spec; problems go to `report` with their path under `path`. */
export function podShapeOf(spec: unknown, path: string, report: Report): PodShape {
  if (!isRecord(spec)) {
    report(path, spec, "must be a pod spec (a mapping with containers)");
    return { cpuMillis: 0, memoryBytes: 0, extended: {}, nodeSelector: [], affinityTerms: [], tolerations: [], hasRequests: false };
  }
  let requested = false;
  let running = zero();
  for (const [i, c] of containers(spec, "containers", path, report).entries()) {
    const r = containerRequests(c, `${path}.containers[${i}]`, report);
    running = add(running, r.amounts);
    requested ||= r.requested;
  }
  let sidecars = zero();
  let initPeak = zero();
  for (const [i, c] of containers(spec, "initContainers", path, report).entries()) {
    const r = containerRequests(c, `${path}.initContainers[${i}]`, report);
    requested ||= r.requested;
    if (c.restartPolicy === "Always") {
      sidecars = add(sidecars, r.amounts);
      initPeak = max(initPeak, sidecars);
    } else {
      initPeak = max(initPeak, add(r.amounts, sidecars));
    }
  }
  const effective = max(initPeak, add(running, sidecars));

  const nodeSelector: Requirement[] = [];
  if (spec.nodeSelector !== undefined) {
    if (!isRecord(spec.nodeSelector)) report(`${path}.nodeSelector`, spec.nodeSelector, "must be a mapping of label keys to values");
    else
      for (const [key, value] of Object.entries(spec.nodeSelector)) {
        if (typeof value !== "string") report(`${path}.nodeSelector.${key}`, value, "must be a string (quote numbers and booleans in YAML)");
        else nodeSelector.push({ key, operator: "In", values: [value] });
      }
  }
  return {
    cpuMillis: effective.cpu,
    memoryBytes: effective.memory,
    extended: effective.extended,
    nodeSelector,
    affinityTerms: affinityTerms(spec, path, report),
    tolerations: tolerationsOf(spec, path, report),
    hasRequests: requested,
  };
}
