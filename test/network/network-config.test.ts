import { parseClusterConfig } from "../../src/config/load-config";
import { clusterProblems, problemsOf } from "../helpers/problems";

const problems = (input: unknown) => problemsOf(() => parseClusterConfig(input, "test.yaml"));

describe("network", () => {
  it("derives the default zones from the region", () => {
    expect(parseClusterConfig({ name: "demo", region: "eu-west-1" }, "t").network).toMatchObject({
      availabilityZones: ["eu-west-1a", "eu-west-1b", "eu-west-1c"],
    });
  });

  it("takes an existing VPC", () => {
    const config = parseClusterConfig({ name: "demo", network: { vpcId: "vpc-0abc", privateSubnetIds: ["subnet-01", "subnet-02"] } }, "t");
    expect(config.network).toEqual({ kind: "existing", vpcId: "vpc-0abc", privateSubnetIds: ["subnet-01", "subnet-02"], publicSubnetIds: [] });
  });

  it("rejects zones outside the region, duplicates and too few zones", () => {
    expect(problems({ name: "demo", region: "eu-west-1", network: { availabilityZones: ["eu-west-1a", "us-east-1b", "eu-west-1a"] } })).toEqual([
      'network.availabilityZones[2]: got "eu-west-1a"; is listed twice; each availability zone may appear once',
      'network.availabilityZones[1]: got "us-east-1b"; is not an availability zone of eu-west-1; expected eu-west-1 followed by a zone letter, such as eu-west-1a',
    ]);
    expect(problems({ name: "demo", network: { availabilityZones: ["us-east-1a"] } })).toEqual([
      'network.availabilityZones: got ["us-east-1a"]; must list at least 2 availability zones (EKS requires subnets in two)',
    ]);
  });

  it("rejects malformed CIDRs and host bits", () => {
    expect(problems({ name: "demo", network: { vpcCidr: "10.0.0.1/16" } })).toEqual([
      'network.vpcCidr: got "10.0.0.1/16"; must be an IPv4 CIDR block such as 10.0.0.0/16 (the new VPC\'s range), with no host bits set',
    ]);
    expect(problems({ name: "demo", cluster: { publicAccessCidrs: ["203.0.113.0/33"] } })).toEqual([
      'cluster.publicAccessCidrs[0]: got "203.0.113.0/33"; must be an IPv4 CIDR block such as 10.0.0.0/16 (a client range), with no host bits set',
    ]);
  });

  it("rejects a VPC range that overlaps Docker's default bridge, 172.17.0.0/16", () => {
    const line = (cidr: string) =>
      `network.vpcCidr: got "${cidr}"; overlaps 172.17.0.0/16, Docker's default bridge network: a host running Docker sends that range to its bridge, not to the VPC; choose a range outside it, such as 10.0.0.0/16`;
    expect(problems({ name: "demo", network: { vpcCidr: "172.17.0.0/16" } })).toEqual([line("172.17.0.0/16")]);
    expect(problems({ name: "demo", network: { vpcCidr: "172.17.128.0/20" } })).toEqual([line("172.17.128.0/20")]);
  });

  it("accepts the ranges next to Docker's, and 172.20.0.0/16: EKS then picks 10.100.0.0/16 for services", () => {
    for (const vpcCidr of ["172.16.0.0/16", "172.18.0.0/16", "172.20.0.0/16", "10.100.0.0/16", "192.168.0.0/16"]) {
      expect(clusterProblems({ network: { vpcCidr } })).toEqual([]);
    }
  });

  it("rejects VPC ranges too small or too large for the zones", () => {
    expect(problems({ name: "demo", network: { vpcCidr: "10.0.0.0/22" } })).toEqual([
      'network.vpcCidr: got "10.0.0.0/22"; is too small for 3 availability zones: private subnets would be /25; use a prefix between /16 and /21',
    ]);
    expect(problems({ name: "demo", network: { vpcCidr: "10.0.0.0/8" } })).toEqual([
      'network.vpcCidr: got "10.0.0.0/8"; is larger than AWS allows for a VPC: use a prefix between /16 and /21',
    ]);
  });

  it.each([
    ["ap-northeast-1", "most accounts have no ap-northeast-1b (only older accounts do)"],
    ["ca-central-1", "new accounts have a, b and d, and only some older ones have c"],
    ["cn-north-1", "its zones are a, b and d in most accounts, not a, b and c"],
    ["us-west-1", "each account has two of us-west-1a, b and c, and which two differs"],
  ])("asks for zones in %s, where a, b and c would fail in some account", (region, reason) => {
    expect(problems({ name: "demo", region })).toEqual([
      `network.availabilityZones: missing; must be listed in ${region}: ${reason} (aws ec2 describe-availability-zones --region ${region} lists your account's)`,
    ]);
  });

  it("rejects a zone letter the region does not have, naming the ones it has", () => {
    expect(problems({ name: "demo", network: { availabilityZones: ["us-east-1a", "us-east-1g"] } })).toEqual([
      'network.availabilityZones[1]: got "us-east-1g"; is not an availability zone of us-east-1, whose zones are us-east-1a, us-east-1b, us-east-1c, us-east-1d, us-east-1e, us-east-1f (AWS\'s lists as of 2026-11-23; a zone opened since then belongs in src/shared/availability-zones.ts)',
    ]);
    expect(problems({ name: "demo", region: "cn-north-1", network: { availabilityZones: ["cn-north-1a", "cn-north-1c"] } })).toEqual([
      'network.availabilityZones[1]: got "cn-north-1c"; is not an availability zone of cn-north-1, whose zones are cn-north-1a, cn-north-1b, cn-north-1d (AWS\'s lists as of 2026-11-23; a zone opened since then belongs in src/shared/availability-zones.ts)',
    ]);
    expect(problems({ name: "demo", region: "eu-west-1", network: { availabilityZones: ["eu-west-1a", "eu-west-1d"] } })).toEqual([
      'network.availabilityZones[1]: got "eu-west-1d"; is not an availability zone of eu-west-1, whose zones are eu-west-1a, eu-west-1b, eu-west-1c (AWS\'s lists as of 2026-11-23; a zone opened since then belongs in src/shared/availability-zones.ts)',
    ]);
  });

  it("accepts the legacy letters older accounts still have, and zones opened lately", () => {
    const zonesOf = (region: string, availabilityZones: string[]) => parseClusterConfig({ name: "demo", region, network: { availabilityZones } }, "t").network;
    expect(zonesOf("ap-northeast-1", ["ap-northeast-1a", "ap-northeast-1b"])).toMatchObject({ availabilityZones: ["ap-northeast-1a", "ap-northeast-1b"] });
    expect(zonesOf("ca-central-1", ["ca-central-1a", "ca-central-1c"])).toMatchObject({ availabilityZones: ["ca-central-1a", "ca-central-1c"] });
    expect(zonesOf("ca-central-1", ["ca-central-1b", "ca-central-1d"])).toMatchObject({ availabilityZones: ["ca-central-1b", "ca-central-1d"] });
    expect(zonesOf("eu-west-2", ["eu-west-2a", "eu-west-2d"])).toMatchObject({ availabilityZones: ["eu-west-2a", "eu-west-2d"] });
    expect(zonesOf("us-west-1", ["us-west-1b", "us-west-1c"])).toMatchObject({ availabilityZones: ["us-west-1b", "us-west-1c"] });
  });

  it("rejects pool zones where the new VPC has no subnet", () => {
    expect(
      problems({
        name: "demo",
        network: { availabilityZones: ["us-east-1a", "us-east-1b"] },
        nodePools: [{ name: "default", zones: ["us-east-1a", "us-east-1d"] }],
      }),
    ).toEqual(['nodePools[0].zones[1]: got "us-east-1d"; has no subnet in this VPC; the VPC\'s zones are us-east-1a, us-east-1b']);
  });

  it("rejects mixing a new VPC's fields with an existing VPC", () => {
    expect(problems({ name: "demo", network: { vpcId: "vpc-0abc", vpcCidr: "10.0.0.0/16", privateSubnetIds: ["subnet-01"] } })).toEqual([
      'network.vpcCidr: got "10.0.0.0/16"; applies to a new VPC only; remove it, or remove vpcId to create a VPC',
      'network.privateSubnetIds: got ["subnet-01"]; must list at least 2 private subnets (in different zones) when vpcId is set',
    ]);
    expect(problems({ name: "demo", network: { privateSubnetIds: ["subnet-01", "subnet-02"] } })).toEqual([
      'network.privateSubnetIds: got ["subnet-01","subnet-02"]; applies to an existing VPC only; set vpcId too, or remove it',
    ]);
  });
});
