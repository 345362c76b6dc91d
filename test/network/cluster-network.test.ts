import { config, findResource, readStack, resourcesOfType, synthApp } from "../helpers/synth-app";

describe("ClusterNetwork, new VPC", () => {
  const json = readStack(synthApp(config({ network: { natGateways: "perAz" } })), "demo-cluster");

  it("creates a VPC with DNS support and hostnames", () => {
    expect(findResource(json, "aws_vpc")[1]).toMatchObject({ cidr_block: "10.0.0.0/16", enable_dns_support: true, enable_dns_hostnames: true });
  });

  it("tags private subnets for Karpenter discovery and internal load balancers", () => {
    const privateSubnets = resourcesOfType(json, "aws_subnet").filter(([, s]) => (s.tags as Record<string, string>)["karpenter.sh/discovery"]);
    expect(privateSubnets.map(([, s]) => [s.availability_zone, s.cidr_block, s.tags])).toEqual(
      ["us-east-1a", "us-east-1b", "us-east-1c"].map((zone, i) => [
        zone,
        `10.0.${i * 32}.0/19`,
        { Name: `demo-private-${zone}`, "karpenter.sh/discovery": "demo", "kubernetes.io/role/internal-elb": "1" },
      ]),
    );
  });

  it("tags public subnets for internet-facing load balancers and gives no public IPs", () => {
    const publicSubnets = resourcesOfType(json, "aws_subnet").filter(([, s]) => (s.tags as Record<string, string>)["kubernetes.io/role/elb"]);
    expect(publicSubnets).toHaveLength(3);
    for (const [, s] of publicSubnets) expect(s.map_public_ip_on_launch).toBe(false);
  });

  it("puts one NAT gateway per zone with perAz, each private subnet routed to its zone's", () => {
    expect(resourcesOfType(json, "aws_nat_gateway")).toHaveLength(3);
    expect(resourcesOfType(json, "aws_eip").map(([, e]) => e.domain)).toEqual(["vpc", "vpc", "vpc"]);
    const privateTables = resourcesOfType(json, "aws_route_table").filter(([, t]) => (t.route as { nat_gateway_id?: string }[])[0].nat_gateway_id);
    expect(privateTables).toHaveLength(3);
  });
});

describe("ClusterNetwork, single NAT", () => {
  it("shares one NAT gateway and one private route table", () => {
    const json = readStack(synthApp(config()), "demo-cluster");
    expect(resourcesOfType(json, "aws_nat_gateway")).toHaveLength(1);
    const [, nat] = findResource(json, "aws_nat_gateway");
    expect(nat.depends_on).toEqual([expect.stringMatching(/^aws_internet_gateway\./)]);
    expect(resourcesOfType(json, "aws_route_table")).toHaveLength(2);
  });
});

describe("ClusterNetwork, existing VPC", () => {
  const json = readStack(
    synthApp(config({ network: { vpcId: "vpc-0abc", privateSubnetIds: ["subnet-01", "subnet-02"], publicSubnetIds: ["subnet-0a"] } })),
    "demo-cluster",
  );

  it("creates no network resources", () => {
    for (const type of ["aws_vpc", "aws_subnet", "aws_nat_gateway", "aws_internet_gateway", "aws_route_table"]) expect(resourcesOfType(json, type)).toEqual([]);
  });

  it("tags the private subnets for Karpenter and internal load balancers, the public ones for internet-facing load balancers", () => {
    const tags = resourcesOfType(json, "aws_ec2_tag").filter(([, t]) => String(t.resource_id).startsWith("subnet-"));
    expect(tags.map(([, t]) => t).sort((a, b) => `${a.resource_id}${a.key}`.localeCompare(`${b.resource_id}${b.key}`))).toEqual([
      { resource_id: "subnet-01", key: "karpenter.sh/discovery", value: "demo" },
      { resource_id: "subnet-01", key: "kubernetes.io/role/internal-elb", value: "1" },
      { resource_id: "subnet-02", key: "karpenter.sh/discovery", value: "demo" },
      { resource_id: "subnet-02", key: "kubernetes.io/role/internal-elb", value: "1" },
      { resource_id: "subnet-0a", key: "kubernetes.io/role/elb", value: "1" },
    ]);
    expect(findResource(json, "aws_eks_cluster")[1].vpc_config).toMatchObject({ subnet_ids: ["subnet-01", "subnet-02"] });
  });
});
