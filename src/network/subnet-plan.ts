import { formatCidr, type Ipv4Cidr, subnetOf } from "./cidr";

/** The subnets of a new VPC, one private and one public per availability zone. */
export interface SubnetPlan {
  readonly privateSubnets: readonly { readonly zone: string; readonly cidr: string }[];
  readonly publicSubnets: readonly { readonly zone: string; readonly cidr: string }[];
}

/**
 * Smallest private subnet we accept: every Karpenter node and, with the VPC CNI, every pod takes an
 * address from it, so a /24 (251 usable) is already tight.
 */
export const MAX_PRIVATE_SUBNET_PREFIX = 24;
/** Public subnets only hold NAT gateways and load balancers; AWS wants at least /27 free for an ALB. */
export const MAX_PUBLIC_SUBNET_PREFIX = 27;

function bitsFor(count: number): number {
  return Math.ceil(Math.log2(Math.max(count, 1)));
}

/**
 * Splits the VPC in 2^k equal blocks, k = bits(zones) + 1: the first `zones` blocks are the private
 * subnets, and the last block is split again into the public subnets. With a /16 and three zones that is
 * three private /19s (8,187 usable addresses each) and three public /21s, and the room between them is left
 * free for later.
 */
export function planSubnets(vpc: Ipv4Cidr, zones: readonly string[]): SubnetPlan {
  const privatePrefix = privateSubnetPrefix(vpc.prefixLength, zones.length);
  const lastBlock = subnetOf(vpc, privatePrefix, 2 ** (privatePrefix - vpc.prefixLength) - 1);
  const publicPrefix = publicSubnetPrefix(vpc.prefixLength, zones.length);
  return {
    privateSubnets: zones.map((zone, i) => ({ zone, cidr: formatCidr(subnetOf(vpc, privatePrefix, i)) })),
    publicSubnets: zones.map((zone, i) => ({ zone, cidr: formatCidr(subnetOf(lastBlock, publicPrefix, i)) })),
  };
}

export function privateSubnetPrefix(vpcPrefix: number, zoneCount: number): number {
  return vpcPrefix + bitsFor(zoneCount) + 1;
}

export function publicSubnetPrefix(vpcPrefix: number, zoneCount: number): number {
  return privateSubnetPrefix(vpcPrefix, zoneCount) + bitsFor(zoneCount);
}

/** The largest VPC prefix length that still gives subnets within the limits above, for error messages. */
export function largestVpcPrefixFor(zoneCount: number): number {
  const privateLimit = MAX_PRIVATE_SUBNET_PREFIX - bitsFor(zoneCount) - 1;
  const publicLimit = MAX_PUBLIC_SUBNET_PREFIX - 2 * bitsFor(zoneCount) - 1;
  return Math.min(privateLimit, publicLimit);
}
