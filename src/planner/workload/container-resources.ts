import { bytes, cpuMillis, parseQuantity } from "../../shared/quantity";
import { isRecord, type Raw, type Report } from "./raw-object";

// A container's (or a pod's) `resources` block, read as the API server validates it: every quantity well formed
// and not negative; no request above its limit; and for extended resources (nvidia.com/gpu, ...), which cannot
// be overcommitted, whole numbers, a limit always, and a request, when given, equal to it. What breaks a rule is
// a problem, as `kubectl apply` would refuse the object. Amounts are in the planner's units: CPU in millicores,
// memory and ephemeral storage in bytes, anything else as a count.
// @see kubernetes/kubernetes pkg/apis/core/validation/validation.go (ValidateResourceRequirements, ValidateResourceQuantityValue)
// @see kubernetes/kubernetes pkg/apis/core/helper/helpers.go (IsExtendedResourceName, IsOvercommitAllowed)

export interface ResourceAmounts {
  /** As written, by resource name; a request that is not written is not here (see `effectiveRequests`). */
  readonly requests: Readonly<Record<string, number>>;
  readonly limits: Readonly<Record<string, number>>;
}

export const NO_AMOUNTS: ResourceAmounts = { requests: {}, limits: {} };

/** Resources whose quantities are bytes. */
const BYTE_RESOURCES = new Set(["memory", "ephemeral-storage"]);

/** A resource outside the kubernetes.io domain, named with one (nvidia.com/gpu): a count the scheduler cannot overcommit. */
export const isExtendedResource = (name: string): boolean => name.includes("/") && !name.includes("kubernetes.io/") && !name.startsWith("requests.");

/** Huge pages cannot be overcommitted either, but are measured in bytes and may be fractions of a page count. */
const isHugePages = (name: string) => name.startsWith("hugepages-");

/** A quantity in the resource's unit (millicores, bytes, a count). */
export function resourceQuantity(name: string, value: string | number): number | undefined {
  return name === "cpu" ? cpuMillis(value) : BYTE_RESOURCES.has(name) || isHugePages(name) ? bytes(value) : parseQuantity(value);
}

/** What each resource's quantity must look like, for the message when it does not. */
function expectedQuantity(name: string): string {
  if (name === "cpu") return 'must be a CPU quantity such as "250m" or "1"';
  if (BYTE_RESOURCES.has(name)) return `must be a ${name === "memory" ? "memory" : "storage"} quantity such as "512Mi" or "1Gi"`;
  return `must be a quantity of ${name} such as "1"`;
}

/** A request or limit in its unit, or undefined after reporting why not (a negative one would free room on a node). */
function quantityOf(name: string, value: unknown, where: string, report: Report): number | undefined {
  const text = typeof value === "number" || typeof value === "string" ? value : undefined;
  const parsed = text === undefined ? undefined : resourceQuantity(name, text);
  if (parsed === undefined) report(where, value, expectedQuantity(name));
  else if (parsed < 0) report(where, value, "must not be negative");
  else if (isExtendedResource(name) && !Number.isInteger(parsed))
    report(where, value, `must be a whole number: the API server refuses a fraction of an extended resource`);
  else return parsed;
  return undefined;
}

/** A resource list (name to quantity) in the resources' units; each bad quantity reported and left out. */
export function readResourceList(block: Raw, path: string, report: Report): Record<string, number> {
  const amounts: Record<string, number> = {};
  for (const [name, value] of Object.entries(block)) {
    const amount = quantityOf(name, value, `${path}.${name}`, report);
    if (amount !== undefined) amounts[name] = amount;
  }
  return amounts;
}

/**
 * The requests and limits of a `resources` block at `path` (a container's, or the pod's own), every problem
 * reported. Limits are read first, so that a problem list follows the block's usual order.
 */
export function readResourceAmounts(resources: unknown, path: string, report: Report): ResourceAmounts {
  if (resources === undefined || resources === null) return NO_AMOUNTS;
  if (!isRecord(resources)) {
    report(path, resources, "must be a mapping with requests and limits");
    return NO_AMOUNTS;
  }
  const read = { requests: {} as Record<string, number>, limits: {} as Record<string, number> };
  const written = { requests: {} as Record<string, unknown>, limits: {} as Record<string, unknown> };
  for (const part of ["limits", "requests"] as const) {
    const block = resources[part];
    if (block === undefined || block === null) continue;
    if (!isRecord(block)) report(`${path}.${part}`, block, "must be a mapping of resource names to quantities");
    else {
      read[part] = readResourceList(block, `${path}.${part}`, report);
      written[part] = block;
    }
  }
  for (const [name, request] of Object.entries(read.requests)) {
    const where = `${path}.requests.${name}`;
    const limit = read.limits[name];
    const overcommittable = !isExtendedResource(name) && !isHugePages(name);
    if (limit === undefined) {
      if (!overcommittable && !(name in written.limits))
        report(
          where,
          written.requests[name],
          `needs a limit too: the API server refuses ${name} requested without a limit (set the limit; the request may then be left out)`,
        );
    } else if (!overcommittable && request !== limit) {
      report(where, written.requests[name], `must equal its limit (${String(written.limits[name])}): ${name} cannot be overcommitted`);
    } else if (request > limit) {
      report(where, written.requests[name], `must be at most its limit (${String(written.limits[name])}): the API server refuses a request above its limit`);
    }
  }
  return read;
}

/** The requests the API server stores: those written, and each limit for a request that is not (SetDefaults_Pod). */
export function effectiveRequests(amounts: ResourceAmounts): Record<string, number> {
  return { ...amounts.limits, ...amounts.requests };
}
