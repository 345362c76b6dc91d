import { parseClusterConfig } from "../../src/config/load-config";
import { readCatalogueFile } from "../../src/instance-catalogue/catalogue-file";
import { catalogueFrom, defaultCataloguePath, loadInstanceCatalogue } from "../../src/instance-catalogue/instance-catalogue";
import { instanceNameChecks, picksByDefaultsOnly } from "../../src/provisioners/instance-name-checks";
import { selectionRequirements } from "../../src/provisioners/pool-requirements";
import { clusterProblems } from "../helpers/problems";

const THROUGH =
  "if AWS launched it after the catalogue's date (2026-07-06), refresh the catalogue (npm run catalogue -- --live --region us-east-1) or set allowUnknownInstances: true on this pool";
const Through = `I${THROUGH.slice(1)}`;
const pool = (fields: Record<string, unknown>) => ({ nodePools: [{ name: "a", ...fields }] });

describe("instance names against the catalogue", () => {
  it("accepts the names Karpenter 1.14.1 knows", () => {
    expect(clusterProblems(pool({ instanceFamilies: ["m5", "c7gn", "c7g"], instanceSizes: ["large", "2xlarge"], instanceCategories: ["m", "c"] }))).toEqual([]);
  });

  it("offers the near misses of a misspelled size or type, and says how to get past a stale catalogue", () => {
    expect(
      clusterProblems(pool({ instanceSizes: ["xlargee"], requirements: [{ key: "node.kubernetes.io/instance-type", operator: "In", values: ["m5.lagre"] }] })),
    ).toEqual([
      `nodePools[0].instanceSizes[0]: got "xlargee"; is not an instance size in the instance catalogue; did you mean xlarge, 2xlarge, 3xlarge? ${Through}`,
      `nodePools[0].requirements[0].values[0]: got "m5.lagre"; is not an instance type in the instance catalogue; did you mean m5.large, m5.xlarge, m5a.large? ${Through}`,
    ]);
  });

  it("lists the newest families of the category when nothing is close (m5 typed as m99zz)", () => {
    expect(clusterProblems(pool({ instanceFamilies: ["m99zz"] }))).toEqual([
      `nodePools[0].instanceFamilies[0]: got "m99zz"; is not an instance family in the instance catalogue; the catalogue's m families, newest first: m9g, m9gd, m8a, m8azn, m8g, m8gb, m8gd, m8gn, ... (39 in all); ${THROUGH}`,
    ]);
  });

  it("checks names in raw requirements too, NotIn included (a typo there excludes nothing)", () => {
    expect(clusterProblems(pool({ requirements: [{ key: "karpenter.k8s.aws/instance-family", operator: "NotIn", values: ["t3", "t3x"] }] }))).toEqual([
      `nodePools[0].requirements[0].values[1]: got "t3x"; is not an instance family in the instance catalogue; did you mean t3, t3a? ${Through}`,
    ]);
  });

  it("refuses a pool no instance type satisfies, naming the fields that exclude each other", () => {
    expect(clusterProblems(pool({ architectures: ["arm64"], instanceFamilies: ["m5", "c5"] }))).toEqual([
      `nodePools[0]: got "a"; matches no instance type, so Karpenter would never launch a node for it: none of the catalogue's 1,336 types satisfies architectures [arm64] together with instanceFamilies [m5, c5]; widen one of them, or, ${THROUGH}`,
    ]);
  });

  it("sees that Windows runs on amd64 only: an arm64 GPU family finds nothing in a Windows pool", () => {
    expect(
      clusterProblems({
        nodeClasses: [{ name: "win", amiAlias: "windows2022@latest" }],
        nodePools: [{ name: "gpu", nodeClass: "win", architectures: ["amd64"], instanceCategories: ["g"], instanceFamilies: ["g5g"] }],
      }),
    ).toEqual([
      `nodePools[0]: got "gpu"; matches no instance type, so Karpenter would never launch a node for it: none of the catalogue's 1,336 types satisfies instanceFamilies [g5g] together with architectures [amd64], the Windows node class win (Windows runs on amd64 only); widen one of them, or, ${THROUGH}`,
    ]);
  });

  describe("the ways through when AWS is ahead of the catalogue", () => {
    const newFamily = pool({ instanceFamilies: ["m9x"] });

    it("allowUnknownInstances: true takes the names as they are, for that pool only", () => {
      expect(clusterProblems(newFamily)).toEqual([
        `nodePools[0].instanceFamilies[0]: got "m9x"; is not an instance family in the instance catalogue; did you mean m9g? ${Through}`,
      ]);
      expect(clusterProblems(pool({ instanceFamilies: ["m9x"], allowUnknownInstances: true }))).toEqual([]);
    });

    it("a refreshed catalogue that lists the family accepts it", () => {
      // What `npm run catalogue -- --live` would add: the committed data plus a family launched since.
      const committed = readCatalogueFile(defaultCataloguePath());
      const m8g = committed.types.find(([name]) => name === "m8g.large");
      if (m8g === undefined) throw new Error("the committed catalogue has no m8g.large");
      const relabel: Record<string, string> = { "karpenter.k8s.aws/instance-family": "m9x", "node.kubernetes.io/instance-type": "m9x.large" };
      const values = m8g[1].map((value, i) => relabel[committed.labelKeys[i]] ?? value);
      const refreshed = catalogueFrom({
        ...committed,
        asOf: "2027-01-15T00:00:00Z",
        types: [...committed.types, ["m9x.large", values, m8g[2], m8g[3], m8g[4]]],
      });

      const config = parseClusterConfig({ name: "demo", ...pool({ instanceFamilies: ["m9x"], allowUnknownInstances: true }) }, "t.yaml");
      const check = (catalogue: typeof refreshed) => {
        const problems: string[] = [];
        const nodePools = config.nodePools.map((p) => ({ ...p, allowUnknownInstances: undefined }));
        for (const { check: run } of instanceNameChecks(() => catalogue))
          run({ ...config, nodePools }, (path, _value, message) => problems.push(`${path.join(".")}: ${message}`));
        return problems;
      };
      expect(check(loadInstanceCatalogue())).toEqual([
        `nodePools.0.instanceFamilies.0: is not an instance family in the instance catalogue; did you mean m9g? ${Through}`,
      ]);
      expect(check(refreshed)).toEqual([]);
    });
  });
});

describe("alongside other problems", () => {
  it("still checks the names of every pool when another pool has a malformed field", () => {
    const problems = clusterProblems({
      nodePools: [
        { name: "a", instanceFamilies: ["zz9"] },
        { name: "d", limits: { memory: "1.5.3Gi" } },
      ],
    });
    expect(problems.map((p) => p.split(";")[0])).toEqual(['nodePools[1].limits.memory: got "1.5.3Gi"', 'nodePools[0].instanceFamilies[0]: got "zz9"']);
  });
});

describe("pools that use the default instance selection", () => {
  it("match types in the catalogue for every architecture and OS they may run, so skipping the catalogue is safe", () => {
    const catalogue = loadInstanceCatalogue();
    for (const [architectures, os] of [
      [["amd64"], "linux"],
      [["arm64"], "linux"],
      [["amd64"], "windows"],
    ] as const) {
      const [defaults] = parseClusterConfig({ name: "demo", ...pool({ architectures }) }, "t.yaml").nodePools;
      expect(picksByDefaultsOnly(defaults)).toBe(true);
      expect({ architectures, os, matches: catalogue.matching(selectionRequirements(defaults, os), { os }).length > 0 }).toEqual({
        architectures,
        os,
        matches: true,
      });
    }
  });

  it("leave the catalogue unread: the default synth never loads it", () => {
    const config = parseClusterConfig({ name: "demo" }, "t.yaml");
    const reads: string[] = [];
    const unreadable = () => {
      reads.push("catalogue");
      throw new Error("the catalogue was read");
    };
    for (const { check } of instanceNameChecks(unreadable)) check(config, () => undefined);
    expect(reads).toEqual([]);
    const narrowed = parseClusterConfig({ name: "demo", ...pool({ minGeneration: 7 }) }, "t.yaml");
    expect(() => {
      for (const { check } of instanceNameChecks(unreadable)) check(narrowed, () => undefined);
    }).toThrow(new Error("the catalogue was read"));
  });
});
