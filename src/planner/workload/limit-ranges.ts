import { formatBytes, formatCpu, parseQuantity } from "../../shared/quantity";
import { type ResourceAmounts, readResourceList } from "./container-resources";
import { isRecord, type Raw, type Report } from "./raw-object";

// LimitRanges, as the LimitRanger admission plugin applies them to a pod created in the namespace. First the
// defaults, into each container (init containers too): a limit the container does not set from `default`, a
// request it does not set (nor has from its limit) from `defaultRequest`. The API server defaults a LimitRange item
// itself when it is stored: `default` from `max`, then `defaultRequest` from `default`, then from `min`. Then the
// bounds: a container (type Container) or the pod's containers together (type Pod) below `min`, above `max`, or
// with a limit more than `maxLimitRequestRatio` times its request is refused: the pod is never created.
// @see kubernetes/kubernetes plugin/pkg/admission/limitranger/admission.go (defaultContainerResourceRequirements,
//      mergeContainerResources, PodValidateLimitFunc, minConstraint, maxConstraint, limitRequestRatioConstraint)
// @see kubernetes/kubernetes pkg/apis/core/v1/defaults.go (SetDefaults_LimitRangeItem)

type Amounts = Readonly<Record<string, number>>;

/** One item of a LimitRange: its defaults (type Container) and its bounds. */
export interface LimitRangeItem {
  /** "LimitRange apps/defaults". */
  readonly source: string;
  readonly type: "Container" | "Pod";
  /** defaultRequest, as the API server stores it: what a container that sets no request gets. */
  readonly requests: Amounts;
  /** default, as stored: what a container that sets no limit gets. */
  readonly limits: Amounts;
  readonly max: Amounts;
  readonly min: Amounts;
  readonly maxLimitRequestRatio: Amounts;
}

/** The items a LimitRange's spec declares (type Container and Pod), with the API server's own defaulting. */
export function readLimitRange(spec: Raw, source: string, report: Report): LimitRangeItem[] {
  const items = Array.isArray(spec.limits) ? spec.limits : [];
  if (spec.limits !== undefined && !Array.isArray(spec.limits)) report("spec.limits", spec.limits, "must be a list of limit range items");
  return items.flatMap((item, i): LimitRangeItem[] => {
    if (!isRecord(item) || (item.type !== "Container" && item.type !== "Pod")) return [];
    const read = (field: string): Amounts => {
      const block = item[field];
      if (block === undefined || block === null) return {};
      if (isRecord(block)) return readResourceList(block, `spec.limits[${i}].${field}`, report);
      report(`spec.limits[${i}].${field}`, block, "must be a mapping of resource names to quantities");
      return {};
    };
    const [max, min, written, writtenRequests] = [read("max"), read("min"), read("default"), read("defaultRequest")];
    // A ratio is a plain number for every resource ("4"), not a quantity of it: "4" of CPU is not 4000 millicores.
    const ratioBlock = item.maxLimitRequestRatio;
    const ratio: Record<string, number> = {};
    if (isRecord(ratioBlock)) {
      for (const [name, value] of Object.entries(ratioBlock)) {
        const parsed = typeof value === "string" || typeof value === "number" ? parseQuantity(value) : undefined;
        if (parsed === undefined || parsed < 1) report(`spec.limits[${i}].maxLimitRequestRatio.${name}`, value, "must be a number of at least 1");
        else ratio[name] = parsed;
      }
    }
    // Only Container items have defaults: a Pod item's default and defaultRequest are refused by validation.
    const limits = item.type === "Container" ? { ...max, ...written } : {};
    const requests = item.type === "Container" ? { ...min, ...limits, ...writtenRequests } : {};
    return [{ source, type: item.type, limits, requests, max, min, maxLimitRequestRatio: ratio }];
  });
}

/** A container's requests and limits once the namespace's LimitRanges have filled in what it leaves out. */
export function withContainerDefaults(amounts: ResourceAmounts, items: readonly LimitRangeItem[]): ResourceAmounts {
  const defaults = items.filter((d) => d.type === "Container");
  if (defaults.length === 0) return amounts;
  const limits: Record<string, number> = { ...amounts.limits };
  // The API server has already copied each limit into a missing request before admission runs.
  const requests: Record<string, number> = { ...amounts.limits, ...amounts.requests };
  for (const d of defaults) {
    for (const [name, value] of Object.entries(d.limits)) if (!(name in limits)) limits[name] = value;
    for (const [name, value] of Object.entries(d.requests)) if (!(name in requests)) requests[name] = value;
  }
  return { requests, limits };
}

const amount = (name: string, value: number) =>
  name === "cpu" ? formatCpu(value) : name === "memory" || name.includes("storage") ? formatBytes(value) : String(value);

/** Why one item refuses these requests and limits (a container's, or the pod's together), or undefined. */
function boundsProblem(item: LimitRangeItem, what: string, { requests, limits }: ResourceAmounts): string | undefined {
  for (const [name, least] of Object.entries(item.min)) {
    const request = requests[name];
    if (request === undefined) return `${what} requests no ${name}, and the minimum per ${item.type} is ${amount(name, least)}`;
    if (request < least) return `${what}'s ${name} request ${amount(name, request)} is below the minimum per ${item.type}, ${amount(name, least)}`;
  }
  for (const [name, most] of Object.entries(item.max)) {
    const limit = limits[name];
    if (limit === undefined) return `${what} sets no ${name} limit, and the maximum per ${item.type} is ${amount(name, most)}`;
    if (limit > most) return `${what}'s ${name} limit ${amount(name, limit)} is above the maximum per ${item.type}, ${amount(name, most)}`;
  }
  for (const [name, ratio] of Object.entries(item.maxLimitRequestRatio)) {
    const [limit, request] = [limits[name], requests[name]];
    if (limit === undefined || request === undefined || request === 0)
      return `${what} needs a ${name} request and limit for the limit-to-request ratio ${ratio}`;
    if (limit / request > ratio) return `${what}'s ${name} limit is ${(limit / request).toFixed(2)} times its request, above the ratio ${ratio}`;
  }
  return undefined;
}

/**
 * Why the namespace's LimitRanges refuse the pod, naming the LimitRange, or undefined when they admit it.
 * `containers`: each container's name and amounts once defaulted; `pod`: the containers' together.
 */
export function limitRangeRefusal(
  items: readonly LimitRangeItem[],
  containers: readonly { readonly name: string; readonly amounts: ResourceAmounts }[],
  pod: ResourceAmounts,
): string | undefined {
  for (const item of items) {
    const problem =
      item.type === "Container"
        ? containers.map((c) => boundsProblem(item, `container ${c.name}`, c.amounts)).find((p) => p !== undefined)
        : boundsProblem(item, "the pod", pod);
    if (problem !== undefined) return `${item.source} refuses it: ${problem}`;
  }
  return undefined;
}
