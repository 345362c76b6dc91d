import * as fs from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";

// The on-disk instance catalogue: one gzipped JSON document, written by `npm run catalogue` (from Karpenter's
// reference, or --live from EC2) and by the --live cache, read by loadInstanceCatalogue. Rows are arrays,
// not objects, so that 1,336 types stay small (about 35 KB gzipped) and parse in a few milliseconds.

export const CATALOGUE_FORMAT = 1;

/** [name, label values in labelKeys order (null: absent), capacity, allocatable, extended resources in resourceKeys order] */
export type CatalogueRow = readonly [
  name: string,
  labels: readonly (string | null)[],
  capacity: readonly [vcpu: number, memoryMiB: number, eniLimitedPods: number],
  allocatable: readonly [cpuMillis: number, memoryMiB: number, pods: number],
  extended: readonly number[],
];

export interface SpotPrices {
  /** When EC2 reported these prices. */
  readonly asOf: string;
  /** USD per hour by instance type, then by zone. */
  readonly usd: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

export interface CatalogueFile {
  readonly format: typeof CATALOGUE_FORMAT;
  /** Where the numbers come from, in words a reader can check. */
  readonly source: string;
  /** When the source data was produced (ISO 8601). */
  readonly asOf: string;
  /** The region of the prices. */
  readonly region: string;
  readonly labelKeys: readonly string[];
  readonly resourceKeys: readonly string[];
  readonly types: readonly CatalogueRow[];
  /** USD per hour, Linux, shared tenancy. */
  readonly onDemandUsd: Readonly<Record<string, number>>;
  /** Only live data has spot prices. */
  readonly spot?: SpotPrices;
}

/** Stable bytes: the same data always writes the same file (gzip without a timestamp or a name). */
export function encodeCatalogue(file: CatalogueFile): Buffer {
  const rows = file.types.map((row) => JSON.stringify(row));
  const { types: _types, ...head } = file;
  const json = `${JSON.stringify(head, null, 1).replace(/\n}$/, "")},\n "types": [\n${rows.join(",\n")}\n ]\n}\n`;
  return gzipSync(Buffer.from(json, "utf8"), { level: 9 });
}

export function decodeCatalogue(data: Buffer, source: string): CatalogueFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(gunzipSync(data).toString("utf8"));
  } catch (error) {
    throw new Error(`${source}: not a gzipped JSON instance catalogue (${(error as Error).message})`);
  }
  const file = parsed as Partial<CatalogueFile>;
  if (file.format !== CATALOGUE_FORMAT || !Array.isArray(file.types) || !Array.isArray(file.labelKeys) || typeof file.onDemandUsd !== "object") {
    throw new Error(`${source}: instance catalogue format ${String(file.format)}, expected ${CATALOGUE_FORMAT}; rebuild it with npm run catalogue`);
  }
  return file as CatalogueFile;
}

export function readCatalogueFile(path: string): CatalogueFile {
  return decodeCatalogue(fs.readFileSync(path), path);
}

/** Written then renamed, so that a reader never sees half a file. */
export function writeCatalogueFile(path: string, file: CatalogueFile): void {
  const partial = `${path}.${process.pid}.tmp`;
  fs.writeFileSync(partial, encodeCatalogue(file));
  fs.renameSync(partial, path);
}
