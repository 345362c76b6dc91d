import * as fs from "node:fs";
import * as path from "node:path";
import { describeChange } from "../../instance-catalogue/catalogue-change";
import { readCatalogueFile, writeCatalogueFile } from "../../instance-catalogue/catalogue-file";
import { CATALOGUE_PATH } from "../../instance-catalogue/instance-catalogue";
import type { AwsClientOverrides } from "./aws-fetch";
import { fetchLiveCatalogueFile } from "./live-catalogue";

// `npm run catalogue -- --live --region <r>`: the way through when AWS ships a family the committed
// catalogue predates. Rewrites src/instance-catalogue/data/instance-catalogue.json.gz from EC2 and the Price List API,
// in the same format, with the new source and date (no spot prices: they belong to a plan, not to the data).

export async function refreshCatalogueLive(
  root: string,
  region: string,
  options: { readonly env: NodeJS.ProcessEnv; readonly progress: (line: string) => void; readonly overrides?: AwsClientOverrides },
): Promise<{ readonly written: readonly string[]; readonly summary: string }> {
  const target = path.join(root, CATALOGUE_PATH);
  const before = fs.existsSync(target) ? readCatalogueFile(target) : undefined;
  const fetched = await fetchLiveCatalogueFile(region, { ...options, spot: false, purpose: "catalogue" });
  writeCatalogueFile(target, fetched);
  return { written: [target], summary: describeChange(before, fetched) };
}
