import { parseClusterConfig } from "../../src/config/load-config";
import { problemsOf } from "../helpers/problems";

const problems = (input: unknown) => problemsOf(() => parseClusterConfig(input, "test.yaml"));

describe("cluster (control plane) settings", () => {
  it("rejects a private-endpoint-off cluster whose public endpoint would not admit its own NAT", () => {
    expect(problems({ name: "demo", cluster: { endpointPrivateAccess: false, publicAccessCidrs: ["203.0.113.0/24"] } })).toEqual([
      "cluster.endpointPrivateAccess: got false; cannot be false with a narrowed publicAccessCidrs: nodes, Fargate pods and the CoreDNS Lambda would reach the API from the NAT addresses, which the list does not include; keep the private endpoint on",
    ]);
  });

  it("rejects a cluster nobody could administer", () => {
    expect(problems({ name: "demo", cluster: { creatorAdmin: false } })).toEqual([
      "cluster.creatorAdmin: got false; cannot be false without another administrator (cluster.adminPrincipalArns, or an access entry with policy cluster-admin): nobody could administer the cluster, and the Karpenter stack could not be deployed",
    ]);
    // A namespaced admin cannot deploy the Karpenter stack (CRDs, cluster roles): still nobody.
    const teamAdmin = { principalArn: "arn:aws:iam::123456789012:role/team-a", policy: "admin", namespaces: ["team-a"] };
    expect(problems({ name: "demo", cluster: { creatorAdmin: false }, access: [teamAdmin] })).toHaveLength(1);
    expect(
      parseClusterConfig({ name: "demo", cluster: { creatorAdmin: false, adminPrincipalArns: ["arn:aws:iam::123456789012:role/platform"] } }, "t").cluster
        .creatorAdmin,
    ).toBe(false);
  });

  it("takes an access entry of policy cluster-admin as the administrator when the creator has none", () => {
    const config = parseClusterConfig(
      { name: "demo", cluster: { creatorAdmin: false }, access: [{ principalArn: "arn:aws:iam::123456789012:role/platform", policy: "cluster-admin" }] },
      "t",
    );
    expect(config.cluster.creatorAdmin).toBe(false);
  });

  it("names the values creatorAdmin takes", () => {
    expect(problems({ name: "demo", cluster: { creatorAdmin: "bootstraped" } })).toEqual([
      'cluster.creatorAdmin: got "bootstraped"; must be true, false or bootstrap',
    ]);
    expect(parseClusterConfig({ name: "demo", cluster: { creatorAdmin: "bootstrap" } }, "t").cluster.creatorAdmin).toBe("bootstrap");
  });

  it("takes at most 40 public ranges, EKS's limit", () => {
    const ranges = (n: number) => Array.from({ length: n }, (_, i) => `203.0.${i}.0/24`);
    expect(parseClusterConfig({ name: "demo", cluster: { publicAccessCidrs: ranges(40) } }, "t").cluster.publicAccessCidrs).toHaveLength(40);
    expect(problems({ name: "demo", cluster: { publicAccessCidrs: ranges(41) } })).toEqual([
      'cluster.publicAccessCidrs: got ["203.0.0.0/24","203.0.1.0/24","203.0.2.0/24","203.0.3.0/...; must list at most 40 ranges, EKS\'s limit per cluster: merge neighbouring ranges, or reach the API through the private endpoint (a VPN, a runner in the VPC)',
    ]);
  });

  it("rejects both endpoints off", () => {
    const unreachable =
      "cluster.endpointPrivateAccess: got false; cannot be false while the public endpoint is off (no publicAccessCidrs, or endpointPublicAccess: false): the API server would be unreachable";
    expect(problems({ name: "demo", cluster: { endpointPublicAccess: false, endpointPrivateAccess: false } })).toEqual([unreachable]);
    expect(problems({ name: "demo", cluster: { endpointPrivateAccess: false } })).toEqual([unreachable]);
  });

  it("asks who may reach a public endpoint, instead of opening it to everyone", () => {
    expect(problems({ name: "demo", cluster: { endpointPublicAccess: true } })).toEqual([
      "cluster.publicAccessCidrs: missing; must list who may reach the public endpoint now that endpointPublicAccess is true: your address (203.0.113.7/32), your pipeline's egress range, or [0.0.0.0/0] for the whole internet as before (synth warns about it)",
    ]);
    expect(problems({ name: "demo", cluster: { endpointPublicAccess: false, publicAccessCidrs: ["203.0.113.7/32"] } })).toEqual([
      'cluster.publicAccessCidrs: got ["203.0.113.7/32"]; applies to the public endpoint, which endpointPublicAccess: false turns off; remove one of the two',
    ]);
    const cluster = (fields: Record<string, unknown>) => parseClusterConfig({ name: "demo", cluster: fields }, "t").cluster;
    expect(cluster({})).toMatchObject({ endpointPublicAccess: false, publicAccessCidrs: [] });
    expect(cluster({ publicAccessCidrs: ["203.0.113.7/32"] })).toMatchObject({ endpointPublicAccess: true, publicAccessCidrs: ["203.0.113.7/32"] });
    expect(cluster({ publicAccessCidrs: [] })).toMatchObject({ endpointPublicAccess: false, publicAccessCidrs: [] });
  });
});

describe("cluster.upgradePolicy", () => {
  it("is extended unless set, as EKS's own default, and takes standard", () => {
    expect(parseClusterConfig({ name: "demo" }, "t").cluster.upgradePolicy).toBe("extended");
    expect(parseClusterConfig({ name: "demo", cluster: { upgradePolicy: "standard" } }, "t").cluster.upgradePolicy).toBe("standard");
    expect(problems({ name: "demo", cluster: { upgradePolicy: "EXTENDED" } })).toEqual(['cluster.upgradePolicy: got "EXTENDED"; allowed: extended, standard']);
  });
});
