import fc from "fast-check";
import { parse } from "yaml";
import { parseClusterConfig } from "../../src/config/load-config";
import { renderProvisioners } from "../../src/provisioners/render-provisioners";
import { clusterProblems as problemsOf } from "../helpers/problems";
import { CONTEXT, validateManifests } from "./helpers";

// Property: every config the validator accepts renders objects that (1) read back from their YAML unchanged
// and (2) pass the @kubernetes-models/karpenter schemas. The generators mix valid and invalid values; the
// parser filters. The schema check runs once, on the whole batch, in one child process.

const labelValue = fc.stringMatching(/^[a-z0-9]([-a-z0-9._]{0,8}[a-z0-9])?$/);
const name = fc.stringMatching(/^[a-z]([-a-z0-9]{0,7}[a-z0-9])?$/);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** Mostly `valid`, sometimes `invalid`: enough configs pass the validator to test the renderer. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) => fc.oneof({ arbitrary: valid, weight: 40 }, { arbitrary: invalid, weight: 1 });

const labelKey = mostly(
  fc.oneof(
    name,
    labelValue.map((n) => `example.com/${n}`),
    fc.constantFrom("karpenter.sh/capacity-type", "karpenter.k8s.aws/instance-gpu-count"),
  ),
  fc.constantFrom("karpenter.sh/nodepool", "kubernetes.io/hostname", "karpenter.k8s.aws/secret", "-bad"),
);
const duration = fc.tuple(fc.integer({ min: 1, max: 999 }), fc.constantFrom("s", "m", "h")).map(([n, unit]) => `${n}${unit}`);

/** Capacity types Karpenter knows, in place of random values, which it would refuse (a well-known label). */
const knownCapacityTypes = <T extends { key: string; values: string[] }>(r: T): T =>
  r.key === "karpenter.sh/capacity-type" ? { ...r, values: r.values.map((_, i) => ["spot", "on-demand", "reserved"][i % 3]) } : r;

const requirement = fc.oneof(
  {
    arbitrary: fc
      .record({ key: labelKey, operator: fc.constantFrom("In", "NotIn"), values: fc.array(labelValue, { minLength: 1, maxLength: 4 }) })
      .map(knownCapacityTypes),
    weight: 8,
  },
  {
    arbitrary: fc
      .record({
        key: labelKey,
        operator: fc.constant("In"),
        values: fc.array(labelValue, { minLength: 2, maxLength: 4 }),
        minValues: fc.constantFrom(1, 2),
      })
      .map(knownCapacityTypes),
    weight: 4,
  },
  {
    arbitrary: fc.record({ key: labelKey, operator: fc.constantFrom("Gt", "Lt", "Gte", "Lte"), values: fc.nat({ max: 64 }).map((n) => [String(n)]) }),
    weight: 6,
  },
  { arbitrary: fc.record({ key: labelKey, operator: fc.constantFrom("Exists", "DoesNotExist") }), weight: 6 },
  {
    // Anything: mostly invalid combinations, to exercise the CEL checks.
    arbitrary: fc.record(
      {
        key: labelKey,
        operator: fc.constantFrom("In", "Gt", "Lte"),
        values: maybe(fc.array(labelValue, { maxLength: 2 })),
        minValues: maybe(fc.integer({ min: 1, max: 5 })),
      },
      { requiredKeys: ["key", "operator"] },
    ),
    weight: 1,
  },
);

const budget = fc.oneof(
  fc.record({
    nodes: fc.oneof(
      fc.nat({ max: 100 }).map((n) => `${n}%`),
      fc.nat({ max: 20 }).map(String),
      fc.nat({ max: 20 }),
    ),
  }),
  fc.record({
    nodes: fc.constantFrom("0", "1", "50%"),
    schedule: fc.constantFrom("@daily", "0 9 * * mon-fri", "*/30 * * * *"),
    duration: mostly(fc.constantFrom("1h", "30m", "1h30m", "8h"), fc.constant(undefined)),
    reasons: fc.subarray(["Underutilized", "Empty", "Drifted"], { minLength: 1 }),
  }),
);

const taint = fc.record(
  { key: labelKey, value: maybe(labelValue), effect: fc.constantFrom("NoSchedule", "PreferNoSchedule", "NoExecute") },
  { requiredKeys: ["key", "effect"] },
);

const nodePool = fc
  .record(
    {
      name,
      nodeClass: mostly(fc.constantFrom("default", "gpu"), fc.constant("missing")),
      architectures: fc.subarray(["amd64", "arm64"], { minLength: 1 }),
      // The generated families and architectures often exclude each other: most pools skip the catalogue
      // check (its own tests are in instance-name-checks.test.ts), so that enough configs reach the renderer.
      allowUnknownInstances: fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 }),
      // "reserved" needs reservations selected by the node class, which only some generated classes have.
      capacityTypes: mostly(fc.subarray(["spot", "on-demand"], { minLength: 1 }), fc.subarray(["spot", "on-demand", "reserved"], { minLength: 1 })),
      instanceSelection: fc.oneof(
        fc.record({ instanceCategories: fc.subarray(["c", "m", "r", "g", "p", "t"], { minLength: 1 }) }),
        fc.record({ instanceFamilies: fc.subarray(["c7g", "m5", "r6i", "g5", "p4d"], { minLength: 1 }) }),
        // Families within the categories, or (rarely) not.
        fc.subarray(["c7g", "m5", "r6i", "g5", "p4d"], { minLength: 1 }).chain((families) =>
          mostly(fc.constant(families.map((f) => f[0])), fc.constant(["t"])).map((categories) => ({
            instanceFamilies: families,
            instanceCategories: [...new Set(categories)],
          })),
        ),
      ),
      instanceSizes: fc.subarray(["large", "xlarge", "2xlarge", "metal"], { minLength: 1 }),
      minGeneration: fc.integer({ min: 1, max: 8 }),
      zones: mostly(fc.subarray(["us-east-1a", "us-east-1b", "us-east-1c"], { minLength: 1 }), fc.constant(["eu-west-1a"])),
      labels: fc.dictionary(labelKey, labelValue, { maxKeys: 3 }),
      taints: fc.array(taint, { maxLength: 2 }),
      startupTaints: fc.array(taint, { maxLength: 1 }),
      limits: fc.record(
        { cpu: fc.oneof(fc.nat({ max: 5000 }), fc.constantFrom("100", "1500m")), memory: fc.constantFrom("1000Gi", "64Gi", "1Ti") },
        { requiredKeys: [] },
      ),
      weight: mostly(fc.integer({ min: 1, max: 100 }), fc.constantFrom(0, 101)),
      consolidationPolicy: fc.constantFrom("WhenEmpty", "WhenEmptyOrUnderutilized", "Balanced"),
      consolidateAfter: fc.oneof(duration, fc.constant("Never")),
      budgets: fc.array(budget, { maxLength: 3 }),
      expireAfter: fc.oneof(duration, fc.constant("Never")),
      terminationGracePeriod: duration,
      requirements: fc.array(requirement, { maxLength: 3 }),
    },
    { requiredKeys: ["name"] },
  )
  .map(({ instanceSelection, ...pool }) => ({ ...pool, ...instanceSelection }));

const ALIASES = {
  "al2023@latest": "AL2023",
  "al2023@v20250807": "AL2023",
  "al2@latest": "AL2",
  "bottlerocket@v1.40.0": "Bottlerocket",
  "windows2022@latest": "Windows2022",
  "windows2025@latest": "Windows2025",
} as const;
const aliasClass = fc
  .tuple(
    fc.constantFrom(...(Object.keys(ALIASES) as (keyof typeof ALIASES)[])),
    fc.constantFrom("none", "own", "Custom", "wrong"),
    maybe(fc.constantFrom("20Gi", "100G", "1Ti")),
  )
  .map(([amiAlias, family, rootVolumeSize]) => ({
    amiAlias,
    ...(family === "none" ? {} : { amiFamily: family === "own" ? ALIASES[amiAlias] : family === "Custom" ? "Custom" : "Bottlerocket" }),
    ...(rootVolumeSize === undefined ? {} : { rootVolumeSize }),
  }));

const imageGC = mostly(
  fc
    .integer({ min: 0, max: 89 })
    .chain((low) => fc.record({ imageGCLowThresholdPercent: fc.constant(low), imageGCHighThresholdPercent: fc.integer({ min: low + 1, max: 100 }) })),
  fc.constant({ imageGCLowThresholdPercent: 80, imageGCHighThresholdPercent: 80 }),
);
const softEviction = mostly(
  fc.constantFrom({}, { evictionSoft: { "memory.available": "10%" }, evictionSoftGracePeriod: { "memory.available": "1m30s" } }),
  fc.constant({ evictionSoft: { "nodefs.available": "10%" } }),
);
const kubelet = fc
  .tuple(
    fc.record(
      {
        maxPods: fc.integer({ min: 0, max: 250 }),
        systemReserved: fc.dictionary(fc.constantFrom("cpu", "memory", "pid"), fc.constantFrom("100m", "1Gi", "1000"), { maxKeys: 2 }),
        evictionHard: fc.dictionary(fc.constantFrom("memory.available", "nodefs.available"), fc.constantFrom("5%", "100Mi"), { maxKeys: 2 }),
      },
      { requiredKeys: [] },
    ),
    imageGC,
    softEviction,
  )
  .map(([base, gc, soft]) => ({ ...base, ...gc, ...soft }));

const amiTerm = fc.oneof(
  fc.record({ id: fc.constantFrom("ami-0123456789abcdef0", "ami-1") }),
  fc.record({ name: fc.constantFrom("my-ami-*"), owner: fc.constantFrom("self", "amazon") }, { requiredKeys: ["name"] }),
  fc.record({ tags: fc.dictionary(fc.constantFrom("team", "os"), fc.constantFrom("ml", "linux"), { minKeys: 1 }) }),
  fc.record({ ssmParameter: fc.constant("/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/x86_64/standard/recommended/image_id") }),
);
const volume = (rootVolume: boolean) =>
  fc.record({
    deviceName: fc.constantFrom("/dev/xvda", "/dev/xvdb"),
    rootVolume: fc.constant(rootVolume),
    // Each type with the IOPS it takes: gp3 optionally, io2 always, gp2 never.
    ebs: fc.oneof(
      fc.record(
        { volumeSize: fc.constantFrom("20Gi", "200Gi"), volumeType: fc.constant("gp3"), iops: fc.constantFrom(3000, 6000) },
        { requiredKeys: ["volumeSize"] },
      ),
      fc.record({ volumeSize: fc.constantFrom("20Gi", "200Gi"), volumeType: fc.constant("io2"), iops: fc.constantFrom(3000, 6000) }),
      fc.record({ volumeSize: fc.constantFrom("20Gi", "200Gi"), volumeType: fc.constant("gp2") }),
    ),
  });

const termsClass = fc
  .record(
    {
      amiSelectorTerms: fc.array(amiTerm, { minLength: 1, maxLength: 3 }),
      amiFamily: mostly(fc.constantFrom("AL2023", "Bottlerocket", "Custom", "Windows2022"), fc.constant(undefined)),
      instanceProfile: fc.constant("my-profile"),
      blockDeviceMappings: mostly(
        fc.tuple(volume(true), fc.array(volume(false), { maxLength: 1 })).map(([root, rest]) => [root, ...rest]),
        fc.tuple(volume(true), volume(true)),
      ),
      kubelet,
      userData: fc.constantFrom("#!/bin/bash\necho hi\n", "[settings.kubernetes]\nmax-pods = 110\n"),
      tags: fc.dictionary(mostly(fc.constantFrom("cost-center", "team"), fc.constant("karpenter.sh/nodeclaim")), fc.constantFrom("ml", "1234"), { maxKeys: 2 }),
      capacityReservationSelectorTerms: fc.array(
        fc.oneof(
          fc.record({ id: fc.constantFrom("cr-0123456789abcdef0", "cr-1") }),
          fc.record({
            tags: fc.constant({ team: "ml" }),
            ownerID: maybe(fc.constant("123456789012")),
            instanceMatchCriteria: maybe(fc.constantFrom("open", "targeted")),
          }),
        ),
        { minLength: 1, maxLength: 2 },
      ),
    },
    { requiredKeys: ["amiSelectorTerms", "amiFamily"] },
  )
  .map((nodeClass) => {
    // Bottlerocket reads its user data as TOML: a shell script there is refused (user-data.ts), not rendered.
    const aliases = nodeClass.amiSelectorTerms.flatMap((t) => ("alias" in t && typeof t.alias === "string" ? [t.alias] : []));
    const bottlerocket = aliases.length > 0 ? aliases.some((a) => a.startsWith("bottlerocket")) : nodeClass.amiFamily === "Bottlerocket";
    return bottlerocket && nodeClass.userData !== undefined ? { ...nodeClass, userData: "[settings.kubernetes]\nmax-pods = 110\n" } : nodeClass;
  });

const nodeClass = fc.oneof(aliasClass, termsClass);

const config = fc
  .record({
    nodeClasses: fc.tuple(nodeClass, nodeClass).map(([a, b]) => [
      { name: "default", ...a },
      { name: "gpu", ...b },
    ]),
    nodePools: fc.array(nodePool, { minLength: 1, maxLength: 3 }),
  })
  // EKS has AL2 AMIs up to Kubernetes 1.32 only (refused later): such classes render for 1.32.
  .map((input) => (JSON.stringify(input.nodeClasses).includes('"al2@') ? { ...input, kubernetesVersion: "1.32" } : input));

it("renders schema-valid objects for every config the validator accepts", () => {
  const manifests: string[] = [];
  let accepted = 0;
  fc.assert(
    fc.property(config, (input) => {
      if (problemsOf(input).length > 0) return; // rejected by the config validator: nothing to render
      accepted += 1;
      const rendered = renderProvisioners(parseClusterConfig({ name: "demo", ...input }, "t.yaml"), CONTEXT);
      for (const { object, yaml } of [...rendered.nodeClasses, ...rendered.nodePools]) {
        expect(parse(yaml)).toEqual(JSON.parse(JSON.stringify(object)));
        manifests.push(yaml);
      }
    }),
    { numRuns: 400, seed: 20260821 },
  );
  // Guard against a vacuous property: enough generated configs must pass the config validator.
  expect(accepted).toBeGreaterThan(100);
  const result = validateManifests(manifests.join("---\n"));
  expect(result.lines.filter((l) => !l.startsWith("ok:"))).toEqual([]);
  expect(result).toEqual({ status: 0, lines: [`ok: ${manifests.length} documents valid`] });
});
