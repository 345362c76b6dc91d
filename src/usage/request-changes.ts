import { formatBytes, formatCpu } from "../shared/quantity";
import type { ContainerRightsizing } from "./recommendations";

// The containers whose requests should change, as the rows a report shows (the savings report's table and
// Markdown, a plan's Markdown for a pull request): under-requested and over-requested ones, in the order given.

export const REQUEST_CHANGE_HEADER = ["container", "status", "requests", "used (p95 / max)", "recommended"] as const;

const cpu = (cores: number) => formatCpu(Math.round(cores * 1000));
const both = (r: { readonly cpu: number; readonly memoryBytes: number }) => `${cpu(r.cpu)} / ${formatBytes(r.memoryBytes)}`;

/** One row a container to change, with `extra` cells of its workload's after them. */
export function requestChangeRows<W extends { readonly workload: string; readonly containers: readonly ContainerRightsizing[] }>(
  workloads: readonly W[],
  extra: (workload: W) => readonly string[] = () => [],
): string[][] {
  return workloads.flatMap((w) =>
    w.containers
      .filter((c) => c.status === "under" || c.status === "over")
      .map((c) => [
        `${w.workload} ${c.name}`,
        c.status,
        both(c.requests),
        c.usage === undefined ? "" : `${cpu(c.usage.cpuP95)} / ${formatBytes(c.usage.memoryMaxBytes)}`,
        both(c.recommended),
        ...extra(w),
      ]),
  );
}
