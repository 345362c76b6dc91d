import * as fs from "node:fs";
import * as path from "node:path";
import { projectRoot } from "../../shared/project-root";
import type { ListPrices } from "../catalogue/list-prices-reference";

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
