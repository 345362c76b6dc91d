import { clusterProblems } from "../helpers/problems";
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

describe("VPC flow logs", () => {
  const json = readStack(synthApp(config()), "demo-cluster");

  it("logs a new VPC's rejected traffic by default, to a log group with a retention", () => {
    const [, flowLog] = findResource(json, "aws_flow_log");
    expect(flowLog).toMatchObject({ traffic_type: "REJECT", log_destination_type: "cloud-watch-logs" });
    expect(String(flowLog.vpc_id)).toMatch(/^\$\{aws_vpc\.network_vpc_\w+\.id\}$/);
    const [groupId, group] = findResource(json, "aws_cloudwatch_log_group", (g) => g.name === "/aws/vpc/demo/flow-logs");
    expect(group.retention_in_days).toBe(90);
    expect(flowLog.log_destination).toBe(`\${aws_cloudwatch_log_group.${groupId}.arn}`);
  });

  it("delivers them with a role only VPC Flow Logs of this account may assume, which may only write that group", () => {
    const [, role] = findResource(json, "aws_iam_role", (r) => r.name === "demo-vpc-flow-logs");
    const documentOf = (ref: unknown) => json.data!.aws_iam_policy_document[String(ref).match(/aws_iam_policy_document\.([^.]+)\.json/)![1]].statement;
    const account = "${data.aws_caller_identity.caller-identity.account_id}";
    expect(documentOf(role.assume_role_policy)).toEqual([
      {
        sid: "VpcFlowLogsAssumeRole",
        effect: "Allow",
        actions: ["sts:AssumeRole"],
        principals: [{ type: "Service", identifiers: ["vpc-flow-logs.amazonaws.com"] }],
        condition: [
          { test: "StringEquals", variable: "aws:SourceAccount", values: [account] },
          { test: "ArnLike", variable: "aws:SourceArn", values: [`arn:aws:ec2:us-east-1:${account}:vpc-flow-log/*`] },
        ],
      },
    ]);
    const [, inline] = findResource(json, "aws_iam_role_policy");
    const [write, list] = documentOf(inline.policy) as { actions: string[]; resources: string[] }[];
    expect(write.actions).toEqual(["logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"]);
    expect(write.resources).toEqual([expect.stringMatching(/^\$\{aws_cloudwatch_log_group\.flow-logs_log-group_\w+\.arn\}:\*$/)]);
    expect(list).toMatchObject({ actions: ["logs:DescribeLogGroups"], resources: ["*"] });
  });

  it("can be widened or turned off, and belongs to a new VPC only", () => {
    const all = readStack(synthApp(config({ network: { flowLogs: { traffic: "ALL", retentionDays: 30 } } })), "demo-cluster");
    expect(findResource(all, "aws_flow_log")[1].traffic_type).toBe("ALL");
    const none = readStack(synthApp(config({ network: { flowLogs: { traffic: "none" } } })), "demo-cluster");
    expect(resourcesOfType(none, "aws_flow_log")).toEqual([]);
    expect(clusterProblems({ network: { vpcId: "vpc-0abc", privateSubnetIds: ["subnet-01", "subnet-02"], flowLogs: { traffic: "ALL" } } })).toEqual([
      'network.flowLogs: got {"traffic":"ALL","retentionDays":90}; applies to a new VPC only; remove it, or remove vpcId to create a VPC',
    ]);
  });
});
