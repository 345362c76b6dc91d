import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { gunzipSync } from "node:zlib";
import { encodeCatalogue, readCatalogueFile } from "../../src/instance-catalogue/catalogue-file";
import { catalogueFrom, defaultCataloguePath, loadInstanceCatalogue } from "../../src/instance-catalogue/instance-catalogue";
import { catalogueFromReference, REFERENCE_FILES } from "../../src/planner/catalogue/karpenter-reference";
import { listPricesFromReference } from "../../src/planner/catalogue/list-prices-reference";
import LIST_PRICES from "../../src/planner/data/list-prices.json";
import { editDistance } from "../../src/shared/closest-names";

const catalogue = loadInstanceCatalogue();
/** Copies of the sources npm run catalogue reads (see the folder's README). */
const REFERENCE = path.join(__dirname, "fixtures", "reference");

describe("instance catalogue", () => {
  it("is Karpenter 1.14.1's: 1,336 types, 1,318 of them priced, us-east-1, dated", () => {
    expect(catalogue.types).toHaveLength(1336);
    expect(catalogue.types.filter((t) => t.onDemandUsd !== undefined)).toHaveLength(1318);
    expect(catalogue.region).toBe("us-east-1");
    expect(catalogue.asOf).toBe("2026-07-06T14:20:29Z");
    expect(catalogue.source).toMatch(/^Karpenter v1\.14\.1 /);
    expect(catalogue.spot).toBeUndefined();
  });

  it("has each type's labels, capacity, allocatable resources and price", () => {
    const m5 = catalogue.type("m5.large");
    expect(m5).toMatchObject({
      name: "m5.large",
      family: "m5",
      size: "large",
      category: "m",
      generation: 5,
      arch: "amd64",
      vcpu: 2,
      memoryMiB: 8192,
      onDemandUsd: 0.096,
    });
    expect(m5?.labels).toMatchObject({
      "karpenter.k8s.aws/instance-family": "m5",
      "karpenter.k8s.aws/instance-cpu": "2",
      "kubernetes.io/os": "linux",
      "node.kubernetes.io/instance-type": "m5.large",
    });
    expect(catalogue.type("p4d.24xlarge")?.extendedResources).toMatchObject({ "nvidia.com/gpu": 8 });
    expect(catalogue.type("m5.large")?.extendedResources["nvidia.com/gpu"]).toBeUndefined();
    expect(catalogue.type("m5.huge")).toBeUndefined();
  });

  it("looks names up by family, size and category", () => {
    expect(catalogue.has("family", "m7g")).toBe(true);
    expect(catalogue.has("size", "metal-48xl")).toBe(true);
    expect(catalogue.has("category", "q")).toBe(false);
    expect(catalogue.typesOf("family", "c6g").map((t) => t.name)).toEqual([
      "c6g.12xlarge",
      "c6g.16xlarge",
      "c6g.2xlarge",
      "c6g.4xlarge",
      "c6g.8xlarge",
      "c6g.large",
      "c6g.medium",
      "c6g.metal",
      "c6g.xlarge",
    ]);
    expect(catalogue.names("category")).toEqual([
      "a",
      "c",
      "d",
      "dl",
      "f",
      "g",
      "gr",
      "h",
      "hpc",
      "i",
      "im",
      "inf",
      "is",
      "m",
      "p",
      "r",
      "t",
      "trn",
      "u",
      "vt",
      "x",
      "z",
    ]);
  });

  it("suggests the nearest known names for a misspelled one", () => {
    expect(catalogue.suggest("type", "m5.lagre")[0]).toBe("m5.large");
    // Same distance: the longer shared prefix first, then alphabetical.
    expect(catalogue.suggest("family", "m7")).toEqual(["m7a", "m7g", "m7i"]);
    expect(catalogue.suggest("size", "xlrage")[0]).toBe("xlarge");
    expect(catalogue.suggest("family", "qqq9")).toEqual([]);
    expect(editDistance("m5.lagre", "m5.large")).toBe(1);
  });

  it("matches requirements on instance-type labels, ignoring offering and pool labels", () => {
    const c6g = [
      { key: "karpenter.k8s.aws/instance-family", operator: "In" as const, values: ["c6g"] },
      { key: "karpenter.sh/capacity-type", operator: "In" as const, values: ["spot"] },
      { key: "example.com/team", operator: "In" as const, values: ["a"] },
    ];
    expect(catalogue.matching(c6g).map((t) => t.name)).toHaveLength(9);
    expect(catalogue.matching([{ key: "karpenter.k8s.aws/instance-cpu", operator: "Gte", values: ["192"] }]).every((t) => t.vcpu >= 192)).toBe(true);
    // Windows nodes are amd64 only: under a Windows node class (os In [windows], as renderNodePool writes
    // it) a Graviton family matches nothing, an amd64 family its types.
    expect(catalogue.matching([{ key: "kubernetes.io/os", operator: "In", values: ["windows"] }, c6g[0]], { os: "windows" })).toEqual([]);
    expect(
      catalogue.matching(
        [
          { key: "kubernetes.io/os", operator: "In", values: ["windows"] },
          { ...c6g[0], values: ["m5"] },
        ],
        { os: "windows" },
      ).length,
    ).toBe(9);
  });

  it("loads from disk in well under a tenth of a second", () => {
    const started = performance.now();
    const fresh = catalogueFrom(readCatalogueFile(defaultCataloguePath()));
    const elapsed = performance.now() - started;
    expect(fresh.types).toHaveLength(1336);
    // Typically 10-25 ms on the project's 2-CPU machine; the bound leaves room for a busy CI runner.
    expect(elapsed).toBeLessThan(250);
  });
});

describe("list prices", () => {
  it("are the dated us-east-1 list prices, typed here by hand from the reference table", () => {
    expect(LIST_PRICES).toMatchObject({
      asOf: "2026-11-23",
      region: "us-east-1",
      eksControlPlaneHourly: { standard: 0.1, extended: 0.6 },
      fargate: { vcpuHourly: 0.04048, gbHourly: 0.004445, podOverheadMiB: 256 },
      natGatewayHourly: 0.045,
      natGatewayPerGb: 0.045,
    });
    expect(LIST_PRICES.fargate.sizes.map((s) => [s.vcpu, s.memoryGb[0], s.memoryGb[s.memoryGb.length - 1], s.memoryGb.length])).toEqual([
      [0.25, 0.5, 2, 3],
      [0.5, 1, 4, 4],
      [1, 2, 8, 7],
      [2, 4, 16, 13],
      [4, 8, 30, 23],
    ]);
  });
});

// The committed data must be exactly what the build script derives from the reference.
describe("committed data against the reference", () => {
  it("src/instance-catalogue/data/instance-catalogue.json.gz is byte for byte what npm run catalogue derives", () => {
    const read = (file: string) => gunzipSync(fs.readFileSync(path.join(REFERENCE, "karpenter", `${file}.gz`))).toString("utf8");
    const derived = encodeCatalogue(catalogueFromReference(read(REFERENCE_FILES.instanceTypes), read(REFERENCE_FILES.pricing)));
    expect(derived.equals(fs.readFileSync(defaultCataloguePath()))).toBe(true);
  });

  it("src/planner/data/list-prices.json is what npm run catalogue derives", () => {
    expect(listPricesFromReference(fs.readFileSync(path.join(REFERENCE, "aws", "list-prices-us-east-1.md"), "utf8"))).toEqual(LIST_PRICES);
  });
});
