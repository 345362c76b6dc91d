import { type ResourceAmounts, readResourceList } from "./container-resources";
import { isRecord, type Raw, type Report } from "./raw-object";

// LimitRange defaults, as the LimitRanger admission plugin fills them into each container (init containers
// too) of a pod created in the namespace: a limit the container does not set from `default`, a request it does
// not set (nor has from its limit) from `defaultRequest`. The API server defaults a LimitRange item itself when
// it is stored: `default` from `max`, then `defaultRequest` from `default`, then from `min`.
// @see kubernetes/kubernetes plugin/pkg/admission/limitranger/admission.go (defaultContainerResourceRequirements, mergeContainerResources)
// @see kubernetes/kubernetes pkg/apis/core/v1/defaults.go (SetDefaults_LimitRangeItem)

/** The defaults of one `type: Container` item: what a container that sets nothing gets. */
export interface ContainerDefaults {
  /** "LimitRange apps/defaults". */
  readonly source: string;
  readonly requests: Readonly<Record<string, number>>;
  readonly limits: Readonly<Record<string, number>>;
}

/** The container defaults a LimitRange's spec declares (every `type: Container` item), with the API server's own defaulting. */
export function readLimitRange(spec: Raw, source: string, report: Report): ContainerDefaults[] {
  const items = Array.isArray(spec.limits) ? spec.limits : [];
  if (spec.limits !== undefined && !Array.isArray(spec.limits)) report("spec.limits", spec.limits, "must be a list of limit range items");
  return items.flatMap((item, i): ContainerDefaults[] => {
    if (!isRecord(item) || item.type !== "Container") return [];
    const read = (field: string): Readonly<Record<string, number>> => {
      const block = item[field];
      if (block === undefined || block === null) return {};
      if (isRecord(block)) return readResourceList(block, `spec.limits[${i}].${field}`, report);
      report(`spec.limits[${i}].${field}`, block, "must be a mapping of resource names to quantities");
      return {};
    };
    const [max, min, written, writtenRequests] = [read("max"), read("min"), read("default"), read("defaultRequest")];
    const limits = { ...max, ...written };
    return [{ source, limits, requests: { ...min, ...limits, ...writtenRequests } }];
  });
}

/** A container's requests and limits once the namespace's LimitRanges have filled in what it leaves out. */
export function withContainerDefaults(amounts: ResourceAmounts, defaults: readonly ContainerDefaults[]): ResourceAmounts {
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
