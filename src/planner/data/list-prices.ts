import * as fs from "node:fs";
import * as path from "node:path";
import { projectRoot } from "../../shared/project-root";

// The dated fixed AWS prices of what the design itself runs (control plane, Fargate, NAT gateways): their
// shape, their file, and the one reader. `npm run catalogue` writes the file; the plan reads it.

export interface FargateSize {
  readonly vcpu: number;
  /** The memory sizes (GB) Fargate offers with this vCPU. */
  readonly memoryGb: readonly number[];
}

export interface ListPrices {
  readonly source: string;
  /** The day the prices were collected. */
  readonly asOf: string;
  readonly region: string;
  readonly eksControlPlaneHourly: { readonly standard: number; readonly extended: number };
  readonly fargate: {
    readonly vcpuHourly: number;
    readonly gbHourly: number;
    /** Added to every pod's memory for kubelet, kube-proxy and containerd before rounding. */
    readonly podOverheadMiB: number;
    readonly sizes: readonly FargateSize[];
  };
  readonly natGatewayHourly: number;
  readonly natGatewayPerGb: number;
}

/** Where the fixed prices live, from the project folder (`npm run catalogue` rewrites them). */
export const LIST_PRICES_PATH = path.join("src", "planner", "data", "list-prices.json");

let cached: ListPrices | undefined;

/**
 * The dated fixed prices in src/planner/data/list-prices.json. Read at run time rather than imported: the
 * bundle cache (scripts/lib/bundle-cache.js) keys on .ts sources, so an imported JSON would stay stale in the
 * bundle after `npm run catalogue` rewrites it.
 */
export function listPrices(): ListPrices {
  cached ??= JSON.parse(fs.readFileSync(path.join(projectRoot(), LIST_PRICES_PATH), "utf8")) as ListPrices;
  return cached;
}
