import { clusterProblems as problemsOf } from "../helpers/problems";

// Every rule is asserted through the real parser, with the exact line the user sees:
// `<path>: got <value>; <message>`. CEL messages are Karpenter's own text (src/provisioners/rules/crd-messages.ts).

const pool = (fields: Record<string, unknown>) => ({ nodePools: [{ name: "a", ...fields }] });

describe("cross-object: Windows", () => {
  it("rejects arm64 in a pool that uses a Windows node class", () => {
    expect(problemsOf({ nodeClasses: [{ name: "win", amiAlias: "windows2022@latest" }], nodePools: [{ name: "win", nodeClass: "win" }] })).toEqual([
      'nodePools[0].architectures: got ["amd64","arm64"]; must be [amd64] with the Windows node class win: EKS runs Windows nodes on amd64 only',
    ]);
    expect(
      problemsOf({ nodeClasses: [{ name: "win", amiAlias: "windows2022@latest" }], nodePools: [{ name: "win", nodeClass: "win", architectures: ["amd64"] }] }),
    ).toEqual([]);
  });
});

describe("checks across objects", () => {
  it("rejects a pool naming a node class that does not exist", () => {
    expect(problemsOf({ nodeClasses: [{ name: "default" }, { name: "gpu" }], nodePools: [{ name: "a" }, { name: "b", nodeClass: "gpus" }] })).toEqual([
      `nodePools[1].nodeClass: got "gpus"; must name one of the nodeClasses: default, gpu`,
    ]);
  });

  it("explains the default node class when the classes do not include it", () => {
    expect(problemsOf({ nodeClasses: [{ name: "gpu" }] })).toEqual([
      `nodePools[0].nodeClass: got "default"; must name one of the nodeClasses: gpu (the default node class; set nodeClass, or keep a node class named default)`,
    ]);
  });

  it("rejects duplicate names", () => {
    expect(problemsOf({ nodeClasses: [{ name: "default" }, { name: "default" }], nodePools: [{ name: "a" }, { name: "b" }, { name: "a" }] })).toEqual([
      `nodeClasses[1].name: got "default"; is listed twice; each node class name may appear once`,
      `nodePools[2].name: got "a"; is listed twice; each NodePool name may appear once`,
    ]);
  });

  it("rejects zones outside the region", () => {
    expect(problemsOf({ region: "eu-west-1", ...pool({ zones: ["eu-west-1a", "us-east-1b", "eu-west-1-lax-1a"] }) })).toEqual([
      `nodePools[0].zones[1]: got "us-east-1b"; is not an availability zone of eu-west-1; expected eu-west-1 followed by a zone letter, such as eu-west-1a`,
      `nodePools[0].zones[2]: got "eu-west-1-lax-1a"; is not an availability zone of eu-west-1; expected eu-west-1 followed by a zone letter, such as eu-west-1a`,
    ]);
  });

  it("rejects a zone letter the region does not have, once (not again as a zone without a subnet)", () => {
    expect(problemsOf({ region: "us-west-2", ...pool({ zones: ["us-west-2e"] }) })).toEqual([
      `nodePools[0].zones[0]: got "us-west-2e"; is not an availability zone of us-west-2, whose zones are us-west-2a, us-west-2b, us-west-2c, us-west-2d (AWS's lists as of 2026-11-23; a zone opened since then belongs in src/shared/availability-zones.ts)`,
    ]);
  });

  it("checks pool zones against the table with an existing VPC too", () => {
    const existing = { vpcId: "vpc-0abc", privateSubnetIds: ["subnet-01", "subnet-02"] };
    expect(problemsOf({ network: existing, ...pool({ zones: ["us-east-1f", "us-east-1z"] }) })).toEqual([
      `nodePools[0].zones[1]: got "us-east-1z"; is not an availability zone of us-east-1, whose zones are us-east-1a, us-east-1b, us-east-1c, us-east-1d, us-east-1e, us-east-1f (AWS's lists as of 2026-11-23; a zone opened since then belongs in src/shared/availability-zones.ts)`,
    ]);
  });

  it("checks zones against the default region", () => {
    expect(problemsOf(pool({ zones: ["us-west-2a"] }))).toEqual([
      `nodePools[0].zones[0]: got "us-west-2a"; is not an availability zone of us-east-1; expected us-east-1 followed by a zone letter, such as us-east-1a`,
    ]);
  });

  it("needs at least one pool", () => {
    expect(problemsOf({ nodePools: [] })).toEqual([
      "nodePools: got []; must list at least one NodePool: Karpenter launches every workload node from one (omit nodePools for the default pool)",
    ]);
  });

  it("rejects an instance family outside the pool's categories", () => {
    expect(problemsOf(pool({ instanceCategories: ["c", "m"], instanceFamilies: ["m7g", "g5"] }))).toEqual([
      `nodePools[0].instanceFamilies[1]: got "g5"; is in instance category "g", which instanceCategories (c, m) leaves out, so no instance type could match; add "g" to instanceCategories or remove this family`,
    ]);
  });

  it("reports every problem at once, cross-object checks included when fields are invalid", () => {
    expect(
      problemsOf({
        nodeClasses: [{ name: "default", amiFamily: "Ubuntu", tags: { "karpenter.sh/nodepool": "x" } }],
        nodePools: [
          { name: "a", weight: 0, nodeClass: "gpu" },
          { name: "b", requirements: [{ key: "kubernetes.io/hostname", operator: "In", values: [] }] },
        ],
      }),
    ).toEqual([
      `nodeClasses[0].amiFamily: got "Ubuntu"; allowed: AL2, AL2023, Bottlerocket, Custom, Windows2019, Windows2022, Windows2025`,
      `nodeClasses[0].tags.karpenter.sh/nodepool: got "karpenter.sh/nodepool"; tag contains a restricted tag matching karpenter.sh/nodepool`,
      "nodePools[0].weight: got 0; must be between 1 and 100",
      `nodePools[1].requirements[0].key: got "kubernetes.io/hostname"; label "kubernetes.io/hostname" is restricted`,
      "nodePools[1].requirements[0].values: got []; requirements with operator 'In' must have a value defined",
      // Checks across sections come last: they run once the fields they read are valid.
      `nodePools[0].nodeClass: got "gpu"; must name one of the nodeClasses: default`,
    ]);
  });

  it("survives values of the wrong type without throwing", () => {
    expect(problemsOf({ nodeClasses: "default", nodePools: [null, { name: "a", requirements: "x", budgets: [7], taints: {} }] })).toEqual([
      `nodeClasses: got "default" (string); expected a list`,
      "nodePools[0]: got null (null); expected a mapping",
      `nodePools[1].taints: got {} (a mapping); expected a list`,
      `nodePools[1].budgets[0]: got 7 (number); expected a mapping`,
      `nodePools[1].requirements: got "x" (string); expected a list`,
    ]);
  });
});

describe("reserved capacity", () => {
  it("needs the pool's node class to select capacity reservations", () => {
    expect(problemsOf(pool({ capacityTypes: ["reserved", "on-demand"] }))).toEqual([
      `nodePools[0].capacityTypes[0]: got "reserved"; needs capacityReservationSelectorTerms on the node class default: Karpenter launches reserved capacity only from the reservations a node class selects`,
    ]);
    expect(
      problemsOf({
        nodeClasses: [{ name: "default", capacityReservationSelectorTerms: [{ tags: { team: "ml" } }] }],
        ...pool({ capacityTypes: ["reserved"] }),
      }),
    ).toEqual([]);
  });
});
