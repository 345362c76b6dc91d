import { bytes, cpuMillis, parseQuantity } from "../../shared/quantity";
import { placementOf } from "./pod-scheduling";
import { isRecord, type Raw, type Report } from "./raw-object";
import { PLAIN_POD, type PodShape } from "./workload-model";

// A pod spec (a template's `spec`) into the scheduler's view of it. Requests follow Kubernetes: a container
// with limits and no requests requests its limits; init containers run one at a time before the others, and
// restartable init containers (sidecars, restartPolicy: Always) keep running beside everything after them.
// @see https://kubernetes.io/docs/concepts/workloads/pods/sidecar-containers/#resource-sharing-within-containers

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

/** The scheduler's view of a pod spec; problems go to `report` with their path under `path`. */
export function podShapeOf(spec: unknown, path: string, report: Report): PodShape {
  if (!isRecord(spec)) {
    report(path, spec, "must be a pod spec (a mapping with containers)");
    return { ...PLAIN_POD, cpuMillis: 0, memoryBytes: 0, hasRequests: false };
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

  return {
    cpuMillis: effective.cpu,
    memoryBytes: effective.memory,
    extended: effective.extended,
    ...placementOf(spec, path, report),
    hasRequests: requested,
  };
}
