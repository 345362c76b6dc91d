import type { CatalogueFile, CatalogueRow } from "../../instance-catalogue/catalogue-file";
import { CATALOGUE_FORMAT } from "../../instance-catalogue/catalogue-file";
import { cpuMillis, MIB, parseQuantity } from "../../shared/quantity";
import { awsLabel } from "../../shared/vocabulary/well-known-labels";

// Reads Karpenter 1.14.1's published facts into the catalogue format: the instance-type reference page
// (labels and allocatable resources per type) and the built-in on-demand price table. Used only by
// `npm run catalogue`, never at plan time.

export const REFERENCE_FILES = {
  instanceTypes: "instance-types-v1.14.1.md",
  pricing: "zz_generated.pricing_aws-v1.14.1.go",
} as const;

/** Resources every type has; the rest (GPUs, ENIs, EFA) are extended resources. */
const CORE_RESOURCES = new Set(["cpu", "memory", "pods", "ephemeral-storage"]);

interface ParsedType {
  readonly name: string;
  readonly labels: ReadonlyMap<string, string>;
  readonly resources: ReadonlyMap<string, string>;
}

/** The "#### Labels" and "#### Resources" tables of each "### `type`" section. */
export function parseInstanceTypesPage(markdown: string): ParsedType[] {
  const types: ParsedType[] = [];
  for (const section of markdown.split(/^### /m).slice(1)) {
    const name = /^`([^`]+)`/.exec(section)?.[1];
    if (name === undefined) continue;
    const [labelPart, resourcePart = ""] = section.split(/^#### Resources/m);
    const rows = (text: string) =>
      new Map(
        [...text.matchAll(/^ \|([^|]+)\|([^|]*)\|\s*$/gm)]
          .map((m) => [m[1].trim(), m[2].trim()] as const)
          .filter(([key]) => key !== "--" && key !== "Label" && key !== "Resource"),
      );
    types.push({ name, labels: rows(labelPart), resources: rows(resourcePart) });
  }
  return types;
}

/** `"m5.large": 0.096000` pairs of the us-east-1 map, and the "generated at" stamp. */
export function parsePricingTable(goSource: string): { generatedAt: string; region: string; prices: Record<string, number> } {
  const stamp = /generated at (\S+) for (\S+)/.exec(goSource);
  if (stamp === null) throw new Error(`${REFERENCE_FILES.pricing}: no "generated at <time> for <region>" line`);
  const prices: Record<string, number> = {};
  for (const m of goSource.matchAll(/"([a-z0-9][a-z0-9.-]*\.[a-z0-9-]+)": ([0-9.]+)/g)) prices[m[1]] = Number(m[2]);
  return { generatedAt: stamp[1], region: stamp[2], prices };
}

function integer(value: string | undefined, what: string, type: string): number {
  const n = value === undefined ? Number.NaN : Number(value);
  if (!Number.isInteger(n)) throw new Error(`${type}: ${what} is ${JSON.stringify(value)}, expected an integer`);
  return n;
}

/** The reference's memory quantities are whole MiB ("1392Mi"); anything else would lose precision here. */
function mebibytes(value: string | undefined, type: string): number {
  const b = value === undefined ? undefined : parseQuantity(value);
  if (b === undefined || !Number.isInteger(b / MIB)) throw new Error(`${type}: memory ${JSON.stringify(value)} is not a whole number of MiB`);
  return b / MIB;
}

/** The catalogue from the two reference files' text. */
export function catalogueFromReference(instanceTypesMarkdown: string, pricingGo: string): CatalogueFile {
  const parsed = parseInstanceTypesPage(instanceTypesMarkdown);
  const pricing = parsePricingTable(pricingGo);
  const labelKeys = [...new Set(parsed.flatMap((t) => [...t.labels.keys()]))].sort();
  const resourceKeys = [...new Set(parsed.flatMap((t) => [...t.resources.keys()].filter((k) => !CORE_RESOURCES.has(k))))].sort();
  const types: CatalogueRow[] = parsed
    .map((t): CatalogueRow => {
      const cpu = cpuMillis(t.resources.get("cpu") ?? "");
      if (cpu === undefined) throw new Error(`${t.name}: cpu ${JSON.stringify(t.resources.get("cpu"))} is not a quantity`);
      const pods = integer(t.resources.get("pods"), "pods", t.name);
      return [
        t.name,
        labelKeys.map((k) => t.labels.get(k) ?? null),
        // For AL2023 the reference's pod count is the ENI-limited one (SupportsENILimitedPodDensity).
        [
          integer(t.labels.get(awsLabel("instance-cpu")), "instance-cpu", t.name),
          integer(t.labels.get(awsLabel("instance-memory")), "instance-memory", t.name),
          pods,
        ],
        [cpu, mebibytes(t.resources.get("memory"), t.name), pods],
        resourceKeys.map((k) => integer(t.resources.get(k) ?? "0", k, t.name)),
      ];
    })
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const known = new Set(types.map((t) => t[0]));
  const onDemandUsd = Object.fromEntries(
    Object.entries(pricing.prices)
      .filter(([name]) => known.has(name))
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  return {
    format: CATALOGUE_FORMAT,
    source: `Karpenter v1.14.1 (aws/karpenter-provider-aws): instance types and allocatable resources from website/content/en/v1.14/reference/instance-types.md (AL2023, default kubelet); on-demand prices from pkg/providers/pricing/zz_generated.pricing_aws.go`,
    asOf: pricing.generatedAt,
    region: pricing.region,
    labelKeys,
    resourceKeys,
    types,
    onDemandUsd,
  };
}
