import { parseClusterConfig } from "../../src/config/load-config";
import { clusterProblems as problemsOf } from "../helpers/problems";

// Every rule is asserted through the real parser, with the exact line the user sees:
// `<path>: got <value>; <message>`. CEL messages are Karpenter's own text (src/provisioners/rules/crd-messages.ts).

const pool = (fields: Record<string, unknown>) => ({ nodePools: [{ name: "a", ...fields }] });
const requirement = (r: Record<string, unknown>) => pool({ requirements: [r] });

describe("defaults", () => {
  it("fills the default pool when nodePools is omitted", () => {
    expect(parseClusterConfig({ name: "demo" }, "t.yaml").nodePools).toEqual([
      {
        name: "default",
        nodeClass: "default",
        architectures: ["amd64", "arm64"],
        capacityTypes: ["spot", "on-demand"],
        minGeneration: 3,
        labels: {},
        taints: [],
        startupTaints: [],
        limits: { cpu: "1000", memory: "1000Gi" },
        consolidationPolicy: "WhenEmptyOrUnderutilized",
        consolidateAfter: "1m",
        budgets: [{ nodes: "10%" }],
        expireAfter: "720h",
        requirements: [],
      },
    ]);
  });

  it("takes YAML integers for quantities and budget node counts", () => {
    const config = parseClusterConfig({ name: "demo", ...pool({ limits: { cpu: 64 }, budgets: [{ nodes: 5 }] }) }, "t.yaml");
    expect(config.nodePools[0].limits).toEqual({ cpu: "64" });
    expect(config.nodePools[0].budgets).toEqual([{ nodes: "5" }]);
  });

  it("accepts the well-known labels the CRD allows", () => {
    expect(
      problemsOf(
        pool({
          labels: { "karpenter.sh/capacity-type": "spot", "karpenter.k8s.aws/instance-gpu-count": "1", "example.com/team": "ml" },
          requirements: [
            { key: "karpenter.k8s.aws/instance-capability-flex", operator: "In", values: ["false"] },
            { key: "karpenter.k8s.aws/instance-cpu", operator: "Lte", values: ["32"] },
            { key: "example.com/zone-group", operator: "Exists" },
          ],
        }),
      ),
    ).toEqual([]);
  });
});

describe("NodePool CEL rules", () => {
  it.each([
    [
      "In without values",
      requirement({ key: "example.com/team", operator: "In", values: [] }),
      "nodePools[0].requirements[0].values: got []; requirements with operator 'In' must have a value defined",
    ],
    [
      "In with values omitted",
      requirement({ key: "example.com/team", operator: "In" }),
      "nodePools[0].requirements[0].values: missing; requirements with operator 'In' must have a value defined",
    ],
    [
      "Gt with two values",
      requirement({ key: "example.com/n", operator: "Gt", values: ["1", "2"] }),
      `nodePools[0].requirements[0].values: got ["1","2"]; requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value`,
    ],
    [
      "Lt with no value",
      requirement({ key: "example.com/n", operator: "Lt" }),
      "nodePools[0].requirements[0].values: missing; requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value",
    ],
    [
      "Gte with a non-integer",
      requirement({ key: "example.com/n", operator: "Gte", values: ["x"] }),
      `nodePools[0].requirements[0].values: got ["x"]; requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value`,
    ],
    [
      "Lte with a decimal",
      requirement({ key: "example.com/n", operator: "Lte", values: ["1.5"] }),
      `nodePools[0].requirements[0].values: got ["1.5"]; requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value`,
    ],
    [
      "minValues above the number of values",
      requirement({ key: "karpenter.k8s.aws/instance-family", operator: "In", values: ["m5", "c5"], minValues: 3 }),
      "nodePools[0].requirements[0].minValues: got 3; requirements with 'minValues' must have at least that many values specified in the 'values' field",
    ],
    [
      "label domain karpenter.sh",
      pool({ labels: { "karpenter.sh/team": "a" } }),
      'nodePools[0].labels.karpenter.sh/team: got "karpenter.sh/team"; label domain "karpenter.sh" is restricted',
    ],
    [
      "label karpenter.sh/nodepool",
      pool({ labels: { "karpenter.sh/nodepool": "a" } }),
      'nodePools[0].labels.karpenter.sh/nodepool: got "karpenter.sh/nodepool"; label "karpenter.sh/nodepool" is restricted',
    ],
    [
      "label kubernetes.io/hostname",
      pool({ labels: { "kubernetes.io/hostname": "a" } }),
      'nodePools[0].labels.kubernetes.io/hostname: got "kubernetes.io/hostname"; label "kubernetes.io/hostname" is restricted',
    ],
    [
      "label domain karpenter.k8s.aws",
      pool({ labels: { "karpenter.k8s.aws/custom": "a" } }),
      'nodePools[0].labels.karpenter.k8s.aws/custom: got "karpenter.k8s.aws/custom"; label domain "karpenter.k8s.aws" is restricted',
    ],
    [
      "requirement key in domain karpenter.sh",
      requirement({ key: "sub.karpenter.sh/x", operator: "Exists" }),
      'nodePools[0].requirements[0].key: got "sub.karpenter.sh/x"; label domain "karpenter.sh" is restricted',
    ],
    [
      "requirement key karpenter.sh/nodepool",
      requirement({ key: "karpenter.sh/nodepool", operator: "Exists" }),
      'nodePools[0].requirements[0].key: got "karpenter.sh/nodepool"; label "karpenter.sh/nodepool" is restricted',
    ],
    [
      "requirement key kubernetes.io/hostname",
      requirement({ key: "kubernetes.io/hostname", operator: "In", values: ["a"] }),
      'nodePools[0].requirements[0].key: got "kubernetes.io/hostname"; label "kubernetes.io/hostname" is restricted',
    ],
    [
      "requirement key in domain karpenter.k8s.aws",
      requirement({ key: "karpenter.k8s.aws/instance-price", operator: "Exists" }),
      'nodePools[0].requirements[0].key: got "karpenter.k8s.aws/instance-price"; label domain "karpenter.k8s.aws" is restricted',
    ],
    [
      "budget schedule without duration",
      pool({ budgets: [{ nodes: "0", schedule: "0 9 * * mon-fri" }] }),
      `nodePools[0].budgets[0]: got {"nodes":"0","schedule":"0 9 * * mon-fri"}; 'schedule' must be set with 'duration'`,
    ],
    [
      "budget duration without schedule",
      pool({ budgets: [{ nodes: "0", duration: "8h" }] }),
      `nodePools[0].budgets[0]: got {"nodes":"0","duration":"8h"}; 'schedule' must be set with 'duration'`,
    ],
  ])("%s", (_name, config, line) => {
    expect(problemsOf(config)).toEqual([line]);
  });
});

describe("Karpenter's runtime validation (RuntimeValidate: what the CRD lets through)", () => {
  const longName = `example.com/${"n".repeat(64)}`;
  const longPrefix = `${"p".repeat(254)}/team`;
  // What formatValue shows of a long string: the first 56 characters after the opening quote.
  const shown = (text: string) => `"${text.slice(0, 56)}...`;
  const NAME_PART = "name part must be no more than 63 characters (it has 64): the part after '/' of a Kubernetes qualified name";

  it.each([
    ["label key with a long name part", pool({ labels: { [longName]: "x" } }), `nodePools[0].labels.${longName}: got ${shown(longName)}; ${NAME_PART}`],
    [
      "label key without prefix, too long",
      pool({ labels: { ["n".repeat(64)]: "x" } }),
      `nodePools[0].labels.${"n".repeat(64)}: got ${shown("n".repeat(64))}; ${NAME_PART}`,
    ],
    [
      "label key with a long prefix",
      pool({ labels: { [longPrefix]: "x" } }),
      `nodePools[0].labels.${longPrefix}: got ${shown(longPrefix)}; prefix part must be no more than 253 characters (it has 254): the DNS subdomain before '/' of a Kubernetes qualified name`,
    ],
    [
      "requirement key with a long name part",
      requirement({ key: longName, operator: "Exists" }),
      `nodePools[0].requirements[0].key: got ${shown(longName)}; ${NAME_PART}`,
    ],
    [
      "requirement key of 317 characters: each part within its limit, the whole over the CRD's",
      requirement({ key: `${"p".repeat(253)}/${"n".repeat(63)}`, operator: "Exists" }),
      `nodePools[0].requirements[0].key: got ${shown("p".repeat(253))}; must be at most 316 characters (the CRD's limit for a requirement key)`,
    ],
    [
      "taint key with a long name part",
      pool({ taints: [{ key: longName, effect: "NoSchedule" }] }),
      `nodePools[0].taints[0].key: got ${shown(longName)}; ${NAME_PART}`,
    ],
    [
      "taint value with a long name part",
      pool({ startupTaints: [{ key: "example.com/ready", value: "v".repeat(64), effect: "NoSchedule" }] }),
      `nodePools[0].startupTaints[0].value: got ${shown("v".repeat(64))}; ${NAME_PART}`,
    ],
    [
      "the same taint key and effect in taints and startupTaints",
      pool({ taints: [{ key: "example.com/gpu", value: "a", effect: "NoSchedule" }], startupTaints: [{ key: "example.com/gpu", effect: "NoSchedule" }] }),
      `nodePools[0].startupTaints[0]: got {"key":"example.com/gpu","effect":"NoSchedule"}; duplicate taint Key/Effect pair example.com/gpu=NoSchedule (Karpenter's message): taints and startupTaints together may hold each key and effect once`,
    ],
    [
      "the same taint key and effect twice in taints, values aside",
      pool({
        taints: [
          { key: "gpu", value: "a", effect: "NoExecute" },
          { key: "gpu", value: "b", effect: "NoExecute" },
        ],
      }),
      `nodePools[0].taints[1]: got {"key":"gpu","value":"b","effect":"NoExecute"}; duplicate taint Key/Effect pair gpu=NoExecute (Karpenter's message): taints and startupTaints together may hold each key and effect once`,
    ],
    [
      "a negative limit (a YAML integer)",
      pool({ limits: { cpu: -5 } }),
      `nodePools[0].limits.cpu: got "-5"; must not be negative: the pool would be over its limit from the start and never launch a node (0 pauses a pool)`,
    ],
    [
      "a negative fractional limit",
      pool({ limits: { memory: "-0.5Gi" } }),
      `nodePools[0].limits.memory: got "-0.5Gi"; must not be negative: the pool would be over its limit from the start and never launch a node (0 pauses a pool)`,
    ],
  ])("rejects %s", (_name, config, line) => {
    expect(problemsOf(config)).toEqual([line]);
  });

  it("accepts what Karpenter accepts: zero limits, the longest parts, a '/' in a taint value, one key with two effects", () => {
    expect(
      problemsOf(
        pool({
          limits: { cpu: 0, memory: "0Gi", nodes: "-0" },
          labels: { [`${"p".repeat(253)}/${"n".repeat(62)}`]: "x", ["n".repeat(63)]: "y" },
          taints: [
            { key: "example.com/gpu", value: "vendor.example.com/a100", effect: "NoSchedule" },
            { key: "example.com/gpu", effect: "NoExecute" },
          ],
        }),
      ),
    ).toEqual([]);
  });

  it("accepts kubernetes.io and k8s.io keys, which Karpenter 1.14 no longer restricts", () => {
    expect(
      problemsOf(
        pool({
          labels: { "kubernetes.io/team": "a", "node.kubernetes.io/role": "b", "k8s.io/owner": "c", "kops.k8s.io/group": "d" },
          requirements: [
            { key: "node-restriction.kubernetes.io/pool", operator: "Exists" },
            { key: "example.k8s.io/tier", operator: "In", values: ["gold"] },
          ],
        }),
      ),
    ).toEqual([]);
  });
});

describe("NodePool field rules (OpenAPI schema)", () => {
  it.each([
    [
      "name not a DNS subdomain",
      { nodePools: [{ name: "GPU_pool" }] },
      `nodePools[0].name: got "GPU_pool"; must be a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit (a Kubernetes NodePool name)`,
    ],
    [
      "name too long",
      { nodePools: [{ name: "a".repeat(64) }] },
      `nodePools[0].name: got "${"a".repeat(56)}...; must be at most 63 characters: the NodePool name is the value of the karpenter.sh/nodepool node label`,
    ],
    [
      "consolidateAfter",
      pool({ consolidateAfter: "1d" }),
      `nodePools[0].consolidateAfter: got "1d"; must be a duration such as "30s", "1m" or "1h30m", or "Never"`,
    ],
    [
      "consolidationPolicy",
      pool({ consolidationPolicy: "WhenUnderutilized" }),
      `nodePools[0].consolidationPolicy: got "WhenUnderutilized"; allowed: WhenEmpty, WhenEmptyOrUnderutilized, Balanced`,
    ],
    ["expireAfter", pool({ expireAfter: "30d" }), `nodePools[0].expireAfter: got "30d"; must be a duration such as "720h", or "Never"`],
    [
      "terminationGracePeriod has no Never",
      pool({ terminationGracePeriod: "Never" }),
      `nodePools[0].terminationGracePeriod: got "Never"; must be a duration such as "48h" or "30m"`,
    ],
    [
      "budget nodes",
      pool({ budgets: [{ nodes: "150%" }] }),
      `nodePools[0].budgets[0].nodes: got "150%"; must be a node count such as "5" or a percentage such as "10%"`,
    ],
    [
      "budget duration",
      pool({ budgets: [{ nodes: "0", schedule: "@daily", duration: "30s" }] }),
      `nodePools[0].budgets[0].duration: got "30s"; must be a duration in hours and minutes such as "8h" or "1h30m"`,
    ],
    [
      "budget reasons",
      pool({ budgets: [{ nodes: "1", reasons: ["Expired"] }] }),
      `nodePools[0].budgets[0].reasons[0]: got "Expired"; allowed: Underutilized, Empty, Drifted`,
    ],
    ["weight 0", pool({ weight: 0 }), "nodePools[0].weight: got 0; must be between 1 and 100"],
    ["weight 101", pool({ weight: 101 }), "nodePools[0].weight: got 101; must be between 1 and 100"],
    [
      "minValues 51",
      requirement({ key: "example.com/a", operator: "Exists", minValues: 51 }),
      "nodePools[0].requirements[0].minValues: got 51; must be between 1 and 50",
    ],
    [
      "operator",
      requirement({ key: "example.com/a", operator: "Matches" }),
      `nodePools[0].requirements[0].operator: got "Matches"; allowed: In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte`,
    ],
    [
      "requirement key syntax",
      requirement({ key: "-bad", operator: "Exists" }),
      `nodePools[0].requirements[0].key: got "-bad"; must be a label key: an optional DNS subdomain prefix and '/', then letters, digits, '-', '_' and '.'`,
    ],
    [
      "requirement value syntax",
      requirement({ key: "example.com/a", operator: "In", values: ["a b"] }),
      `nodePools[0].requirements[0].values[0]: got "a b"; must be a label value: letters, digits, '-', '_' and '.', starting and ending with a letter or digit`,
    ],
    [
      "more than 100 requirements",
      pool({ requirements: Array.from({ length: 101 }, () => ({ key: "example.com/a", operator: "Exists" })) }),
      `nodePools[0].requirements: got [{"key":"example.com/a","operator":"Exists"},{"key":"exam...; must list at most 100 requirements`,
    ],
    [
      "requirements over 100 with the generated ones",
      pool({ requirements: Array.from({ length: 96 }, () => ({ key: "example.com/a", operator: "Exists" })) }),
      "nodePools[0].requirements: got 96; must list at most 95 requirements: the CRD allows 100 and this pool's other fields generate 5",
    ],
    [
      "taint effect",
      pool({ taints: [{ key: "nvidia.com/gpu", effect: "NoRun" }] }),
      `nodePools[0].taints[0].effect: got "NoRun"; allowed: NoSchedule, PreferNoSchedule, NoExecute`,
    ],
    [
      "taint key",
      pool({ startupTaints: [{ key: "a b", effect: "NoSchedule" }] }),
      `nodePools[0].startupTaints[0].key: got "a b"; must be a taint key such as nvidia.com/gpu: an optional DNS prefix and '/', then letters, digits, '-', '_' and '.'`,
    ],
    [
      "label key syntax",
      pool({ labels: { "a b": "x" } }),
      `nodePools[0].labels.a b: got "a b"; must be a label key: an optional DNS subdomain prefix and '/', then letters, digits, '-', '_' and '.'`,
    ],
    [
      "label value",
      pool({ labels: { team: "a/b" } }),
      `nodePools[0].labels.team: got "a/b"; must be a label value: letters, digits, '-', '_' and '.', starting and ending with a letter or digit`,
    ],
    [
      "limit quantity",
      pool({ limits: { cpu: "lots" } }),
      `nodePools[0].limits.cpu: got "lots"; must be a resource quantity such as "1000", "1000Gi" or "500m"`,
    ],
    ["architecture", pool({ architectures: ["x86_64"] }), `nodePools[0].architectures[0]: got "x86_64"; allowed: amd64, arm64`],
    ["capacity type", pool({ capacityTypes: ["preemptible"] }), `nodePools[0].capacityTypes[0]: got "preemptible"; allowed: spot, on-demand, reserved`],
    ["empty list", pool({ zones: [] }), "nodePools[0].zones: got []; must list at least one value (omit the field to leave it open)"],
    [
      "unknown key",
      pool({ instanceTypes: ["m5.large"] }),
      "nodePools[0].instanceTypes: unknown key; allowed keys: name, nodeClass, architectures, capacityTypes, instanceCategories, instanceFamilies, instanceSizes, minGeneration, zones, labels, taints, startupTaints, limits, weight, consolidationPolicy, consolidateAfter, budgets, expireAfter, terminationGracePeriod, allowUnknownInstances, requirements (did you mean instanceSizes?)",
    ],
  ])("%s", (_name, config, line) => {
    expect(problemsOf(config)).toEqual([line]);
  });
});
