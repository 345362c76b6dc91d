import * as fs from "node:fs";
import * as path from "node:path";
import { describeChange } from "../../instance-catalogue/catalogue-change";
import { readCatalogueFile, writeCatalogueFile } from "../../instance-catalogue/catalogue-file";
import { CATALOGUE_PATH } from "../../instance-catalogue/instance-catalogue";
import { InputError } from "../../shared/input-error";
import { readFailure } from "../../shared/untrusted-file";
import { LIST_PRICES_PATH } from "../data/list-prices";
import { catalogueFromReference, REFERENCE_FILES } from "./karpenter-reference";
import { listPricesFromReference } from "./list-prices-reference";

// `npm run catalogue`: (re)writes the committed data, the instance catalogue (src/instance-catalogue/data) and
// the dated AWS list prices (src/planner/data), from Karpenter's reference, or with --live the catalogue from
// EC2 and the Price List API (see live/refresh-catalogue.ts).

export interface BuildResult {
  readonly written: readonly string[];
  readonly summary: string;
}

/** JSON as the project's formatter writes it: two spaces, lists of plain values on one line. */
export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/\[\s+([^[\]{}]*?)\s+\]/g, (_, inner: string) => `[${inner.split(/,\s+/).join(", ")}]`);
}

/** From ../shared/reference (or another folder holding the same files). */
export function buildFromReference(root: string, referenceDir: string): BuildResult {
  const karpenterDir = path.join(referenceDir, "karpenter");
  const read = (file: string) => {
    try {
      return fs.readFileSync(file, "utf8");
    } catch (error) {
      const reason = readFailure(error);
      if (reason === undefined) throw error;
      throw new InputError("--reference", [`cannot read ${file} (${reason}); --reference must name the folder holding karpenter/ and aws/`]);
    }
  };
  const catalogue = catalogueFromReference(
    read(path.join(karpenterDir, REFERENCE_FILES.instanceTypes)),
    read(path.join(karpenterDir, REFERENCE_FILES.pricing)),
  );
  const listPrices = listPricesFromReference(read(path.join(referenceDir, "aws", "list-prices-us-east-1.md")));
  const cataloguePath = path.join(root, CATALOGUE_PATH);
  const before = fs.existsSync(cataloguePath) ? readCatalogueFile(cataloguePath) : undefined;
  fs.mkdirSync(path.dirname(cataloguePath), { recursive: true });
  writeCatalogueFile(cataloguePath, catalogue);
  const listPricesPath = path.join(root, LIST_PRICES_PATH);
  fs.mkdirSync(path.dirname(listPricesPath), { recursive: true });
  fs.writeFileSync(listPricesPath, `${formatJson(listPrices)}\n`);
  return { written: [cataloguePath, listPricesPath], summary: describeChange(before, catalogue) };
}
