import { DefaultSecurityGroup } from "@cdktf/provider-aws/lib/default-security-group";
import { Ec2Tag } from "@cdktf/provider-aws/lib/ec2-tag";
import { Eip } from "@cdktf/provider-aws/lib/eip";
import { InternetGateway } from "@cdktf/provider-aws/lib/internet-gateway";
import { NatGateway } from "@cdktf/provider-aws/lib/nat-gateway";
import { RouteTable } from "@cdktf/provider-aws/lib/route-table";
import { RouteTableAssociation } from "@cdktf/provider-aws/lib/route-table-association";
import { Subnet } from "@cdktf/provider-aws/lib/subnet";
import { Vpc } from "@cdktf/provider-aws/lib/vpc";
import { Construct } from "constructs";
import { parseCidr } from "./cidr";
import { DISCOVERY_TAG, LOAD_BALANCER_SUBNET_TAGS } from "./discovery-tag";
import type { NetworkConfig } from "./network-config";
import { planSubnets } from "./subnet-plan";

export interface ClusterNetworkProps {
  readonly clusterName: string;
  readonly network: NetworkConfig;
}

/**
 * Where the cluster lives: a new VPC with one private and one public subnet per zone, or an existing VPC.
 * The private subnets hold the control-plane ENIs, Fargate pods and Karpenter's nodes.
 */
export class ClusterNetwork extends Construct {
  readonly vpcId: string;
  readonly privateSubnetIds: readonly string[];
  readonly publicSubnetIds: readonly string[];

  constructor(scope: Construct, id: string, props: ClusterNetworkProps) {
    super(scope, id);
    const { network, clusterName } = props;
    if (network.kind === "existing") {
      this.vpcId = network.vpcId;
      this.privateSubnetIds = network.privateSubnetIds;
      this.publicSubnetIds = network.publicSubnetIds;
      // The subnets are not ours, so only the tags are managed, one tag per resource: Karpenter finds node
      // subnets by the discovery tag, load balancers find theirs by role. (A Terraform configuration that
      // manages these subnets' whole tag map would remove them: add them there instead, or ignore them.)
      network.privateSubnetIds.forEach((subnetId, i) => {
        new Ec2Tag(this, `private-discovery-tag-${i}`, { resourceId: subnetId, key: DISCOVERY_TAG, value: clusterName });
        new Ec2Tag(this, `private-load-balancer-tag-${i}`, { resourceId: subnetId, key: LOAD_BALANCER_SUBNET_TAGS.private, value: "1" });
      });
      network.publicSubnetIds.forEach((subnetId, i) => {
        new Ec2Tag(this, `public-load-balancer-tag-${i}`, { resourceId: subnetId, key: LOAD_BALANCER_SUBNET_TAGS.public, value: "1" });
      });
      return;
    }

    const vpcCidr = parseCidr(network.vpcCidr);
    if (vpcCidr === undefined) throw new Error(`network.vpcCidr ${network.vpcCidr} is not a CIDR; the config check should have caught this`);
    const plan = planSubnets(vpcCidr, network.availabilityZones);
    const vpc = new Vpc(this, "vpc", {
      cidrBlock: network.vpcCidr,
      // Both are required for the private API endpoint and for Fargate pods to resolve it.
      enableDnsSupport: true,
      enableDnsHostnames: true,
      tags: { Name: `${clusterName}-vpc` },
    });
    this.vpcId = vpc.id;
    // AWS gives every VPC a default security group that lets its members reach each other on every port; nothing
    // here uses it, and anything placed in it by mistake would be open to the rest. Managed with no rules, as
    // terraform-aws-vpc does (Security Hub EC2.2). Only on the VPC this project creates: an existing VPC's
    // default group is its owner's.
    new DefaultSecurityGroup(this, "default-security-group", { vpcId: vpc.id, ingress: [], egress: [], tags: { Name: `${clusterName}-default-unused` } });

    const internetGateway = new InternetGateway(this, "internet-gateway", { vpcId: vpc.id, tags: { Name: `${clusterName}-igw` } });
    const publicRoutes = new RouteTable(this, "public-routes", {
      vpcId: vpc.id,
      route: [{ cidrBlock: "0.0.0.0/0", gatewayId: internetGateway.id }],
      tags: { Name: `${clusterName}-public` },
    });
    const publicSubnets = plan.publicSubnets.map((s, i) => {
      const subnet = new Subnet(this, `public-${s.zone}`, {
        vpcId: vpc.id,
        cidrBlock: s.cidr,
        availabilityZone: s.zone,
        // Nothing but NAT gateways and load balancers lives here; no instance should get a public IP.
        mapPublicIpOnLaunch: false,
        tags: { Name: `${clusterName}-public-${s.zone}`, [LOAD_BALANCER_SUBNET_TAGS.public]: "1" },
      });
      new RouteTableAssociation(this, `public-${s.zone}-routes`, { subnetId: subnet.id, routeTableId: publicRoutes.id });
      return { subnet, index: i };
    });
    this.publicSubnetIds = publicSubnets.map((p) => p.subnet.id);

    const natCount = network.natGateways === "perAz" ? plan.publicSubnets.length : 1;
    const natGateways = publicSubnets.slice(0, natCount).map(({ subnet }, i) => {
      const zone = plan.publicSubnets[i].zone;
      const eip = new Eip(this, `nat-${zone}-ip`, { domain: "vpc", tags: { Name: `${clusterName}-nat-${zone}` } });
      return new NatGateway(this, `nat-${zone}`, {
        allocationId: eip.id,
        subnetId: subnet.id,
        tags: { Name: `${clusterName}-nat-${zone}` },
        // A NAT gateway needs the internet gateway attached to route anything.
        dependsOn: [internetGateway],
      });
    });

    const privateRoutes = natGateways.map(
      (nat, i) =>
        new RouteTable(this, natCount === 1 ? "private-routes" : `private-routes-${plan.privateSubnets[i].zone}`, {
          vpcId: vpc.id,
          route: [{ cidrBlock: "0.0.0.0/0", natGatewayId: nat.id }],
          tags: { Name: natCount === 1 ? `${clusterName}-private` : `${clusterName}-private-${plan.privateSubnets[i].zone}` },
        }),
    );
    this.privateSubnetIds = plan.privateSubnets.map((s, i) => {
      const subnet = new Subnet(this, `private-${s.zone}`, {
        vpcId: vpc.id,
        cidrBlock: s.cidr,
        availabilityZone: s.zone,
        tags: { Name: `${clusterName}-private-${s.zone}`, [DISCOVERY_TAG]: clusterName, [LOAD_BALANCER_SUBNET_TAGS.private]: "1" },
      });
      new RouteTableAssociation(this, `private-${s.zone}-routes`, { subnetId: subnet.id, routeTableId: privateRoutes[natCount === 1 ? 0 : i].id });
      return subnet.id;
    });
  }
}
