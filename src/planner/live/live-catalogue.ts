import * as fs from "node:fs";
import * as path from "node:path";
import { CATALOGUE_FORMAT, type CatalogueFile, readCatalogueFile, writeCatalogueFile } from "../../instance-catalogue/catalogue-file";
import { catalogueFrom, type InstanceCatalogue, loadInstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import { projectRoot } from "../../shared/project-root";
import { type AwsClientOverrides, fetchInstanceTypes, fetchOnDemandPrices, fetchSpotPrices } from "./aws-fetch";
import { rowsFromInstanceTypes } from "./live-instance-types";

// --live: current instance types and prices for a region, fetched with the AWS SDK and cached on disk (with
// the time they were fetched) so that re-running a plan does not call AWS again for an hour. Failures come
// back as one-line LiveDataErrors: missing credentials, throttling that outlasted the SDK's retries, denials.

/** A failure to get live data, worded for the person at the terminal. */
export class LiveDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LiveDataError";
  }
}

export interface LiveOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly progress: (line: string) => void;
  /** Default .cache/planner in the project, or PLANNER_CACHE_DIR. */
  readonly cacheDir?: string;
  /** How old a cached fetch may be; default 60 minutes. */
  readonly maxAgeMinutes?: number;
  /** Spot prices too (the plan needs them; a catalogue refresh does not). */
  readonly spot?: boolean;
  readonly overrides?: AwsClientOverrides;
  readonly now?: () => Date;
  /** After how long a progress line appears; default one second. */
  readonly progressAfterMs?: number;
  /** Whose live data it is, for the way out its messages offer; default "plan" (npm run plan -- --live). */
  readonly purpose?: LivePurpose;
}

export type LivePurpose = "plan" | "catalogue" | "savings";

/** What each command can do instead of --live, and the permissions its --live needs. */
const WITHOUT_LIVE: Readonly<Record<LivePurpose, { readonly instead: string; readonly needs: string }>> = {
  plan: {
    instead: "or plan without --live",
    needs: "the planner needs ec2:DescribeInstanceTypes, ec2:DescribeSpotPriceHistory and pricing:GetProducts",
  },
  savings: {
    instead: "or run the report without --live",
    needs: "npm run savings -- --live needs ec2:DescribeInstanceTypes, ec2:DescribeSpotPriceHistory and pricing:GetProducts",
  },
  catalogue: {
    instead: "or rebuild the catalogue from Karpenter's reference without --live (npm run catalogue)",
    needs: "npm run catalogue -- --live needs ec2:DescribeInstanceTypes and pricing:GetProducts",
  },
};

/** What went wrong, in one line, with what to do instead for the command that asked (`purpose`). */
export function describeAwsError(error: unknown, region: string, purpose: LivePurpose = "plan"): string {
  const { instead, needs } = WITHOUT_LIVE[purpose];
  const e = error as { name?: string; message?: string; code?: string; $metadata?: { attempts?: number } };
  const name = e.name ?? "Error";
  if (name === "CredentialsProviderError" || /Could not load credentials/.test(e.message ?? "")) {
    return `--live needs AWS credentials and found none (environment, shared config and SSO were tried): set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, ${instead}`;
  }
  if (/^(RequestLimitExceeded|Throttling|ThrottlingException|TooManyRequestsException)$/.test(name)) {
    return `AWS throttled the live data requests (${name}) after ${e.$metadata?.attempts ?? "several"} attempts; wait a minute and try again, ${instead}`;
  }
  if (/^(UnauthorizedOperation|AccessDenied|AccessDeniedException)$/.test(name)) {
    return `AWS denied a live data request (${name}): ${needs}`;
  }
  const code = e.code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "ETIMEDOUT") return `cannot reach AWS for ${region} (${code}): check the network, ${instead}`;
  return `live data for ${region} failed: ${name}: ${(e.message ?? String(error)).split("\n")[0]}`;
}

function cacheFile(region: string, options: LiveOptions): string {
  const dir = options.cacheDir ?? options.env.PLANNER_CACHE_DIR ?? path.join(projectRoot(), ".cache", "planner");
  return path.join(dir, `${region}${options.spot === false ? "-types" : ""}.json.gz`);
}

/** Fetches the region's catalogue in the committed catalogue's format (same label and resource columns). */
export async function fetchLiveCatalogueFile(region: string, options: LiveOptions): Promise<CatalogueFile> {
  const now = options.now?.() ?? new Date();
  const started = Date.now();
  let pages = 0;
  let announced = false;
  const timer = setTimeout(() => {
    announced = true;
    options.progress(
      `planner: fetching instance types${options.spot === false ? "" : ", spot prices"} and on-demand prices for ${region} from AWS (${pages} pages so far)...`,
    );
  }, options.progressAfterMs ?? 1000);
  timer.unref();
  const hooks = { onPage: () => pages++ };
  const overrides = options.overrides ?? {};
  try {
    const [types, onDemand, spot] = await Promise.all([
      fetchInstanceTypes(region, overrides, hooks),
      fetchOnDemandPrices(region, overrides, hooks),
      options.spot === false ? Promise.resolve(undefined) : fetchSpotPrices(region, now, overrides, hooks),
    ]);
    const known = loadInstanceCatalogue();
    const labelKeys = [...known.labelKeys].sort();
    const resourceKeys = [...new Set(known.types.flatMap((t) => Object.keys(t.extendedResources)))].sort();
    const rows = rowsFromInstanceTypes(types, labelKeys, resourceKeys, known);
    const names = new Set(rows.map((r) => r[0]));
    if (announced)
      options.progress(`planner: fetched ${rows.length} instance types for ${region} in ${((Date.now() - started) / 1000).toFixed(1)} s (${pages} pages)`);
    return {
      format: CATALOGUE_FORMAT,
      source: `AWS APIs for ${region}: EC2 DescribeInstanceTypes${spot === undefined ? "" : " and DescribeSpotPriceHistory"}, Price List GetProducts (on-demand, Linux); allocatable computed as Karpenter 1.14.1 does`,
      asOf: now.toISOString(),
      region,
      labelKeys,
      resourceKeys,
      types: rows,
      onDemandUsd: Object.fromEntries(Object.entries(onDemand).filter(([name]) => names.has(name))),
      ...(spot === undefined ? {} : { spot: { asOf: spot.asOf, usd: Object.fromEntries(Object.entries(spot.usd).filter(([name]) => names.has(name))) } }),
    };
  } catch (error) {
    throw new LiveDataError(describeAwsError(error, region, options.purpose));
  } finally {
    clearTimeout(timer);
  }
}

/** The region's live catalogue, from the cache when it is fresh enough. */
export async function loadLiveCatalogue(region: string, options: LiveOptions): Promise<InstanceCatalogue> {
  const file = cacheFile(region, options);
  const maxAgeMs = (options.maxAgeMinutes ?? 60) * 60_000;
  const now = options.now?.() ?? new Date();
  if (fs.existsSync(file)) {
    try {
      const cached = readCatalogueFile(file);
      if (now.getTime() - Date.parse(cached.asOf) < maxAgeMs) return catalogueFrom({ ...cached, source: `${cached.source} (cached ${file})` });
    } catch {
      // An unreadable cache is refetched.
    }
  }
  const fetched = await fetchLiveCatalogueFile(region, options);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeCatalogueFile(file, fetched);
  return catalogueFrom(fetched);
}
