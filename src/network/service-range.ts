import { cidrContains, parseCidr, parseIpv4 } from "./cidr";
import { DEFAULT_VPC_CIDR } from "./network-config";

// The cluster's Kubernetes service range, which decides the addresses a node's DNS may point at.
//
// No serviceIpv4Cidr is set on the cluster, so EKS picks the range when it creates the cluster: 172.20.0.0/16
// when the VPC's range is in 10.0.0.0/8 and 10.100.0.0/16 otherwise, so that it never overlaps the VPC. The
// kube-dns Service (CoreDNS) takes the range's .10, which Karpenter gives the kubelet unless `clusterDNS` says
// otherwise.
// @see https://docs.aws.amazon.com/eks/latest/APIReference/API_KubernetesNetworkConfigRequest.html (serviceIpv4Cidr)
// @see https://karpenter.sh/docs/concepts/nodeclasses/#speckubelet (clusterDNS)

const IN_TEN_SLASH_EIGHT = "172.20.0.0/16";
const OTHERWISE = "10.100.0.0/16";
const TEN_SLASH_EIGHT = "10.0.0.0/8";

/**
 * NodeLocal DNSCache listens on a link-local address on every node (169.254.20.10 by default), which
 * kubelets then hand to pods as their DNS server.
 * @see https://kubernetes.io/docs/tasks/administer-cluster/nodelocaldns/
 */
const LINK_LOCAL_CIDR = "169.254.0.0/16";

/** The service ranges the cluster can have: one for a VPC created here, either of EKS's two for an existing VPC. */
function serviceCidrs(network: { readonly vpcId?: string; readonly vpcCidr?: string }): readonly string[] {
  if (network.vpcId !== undefined) return [OTHERWISE, IN_TEN_SLASH_EIGHT];
  const vpc = parseCidr(network.vpcCidr ?? DEFAULT_VPC_CIDR);
  const tens = parseCidr(TEN_SLASH_EIGHT);
  return [vpc !== undefined && tens !== undefined && cidrContains(tens, vpc.network) ? IN_TEN_SLASH_EIGHT : OTHERWISE];
}

/** The kube-dns Service's address in a service range: its .10. */
function kubeDnsAddress(serviceCidr: string): string {
  return serviceCidr.replace(/\.0\/\d+$/, ".10");
}

/**
 * Why a kubelet clusterDNS address would leave pods without DNS, or undefined. The kubelet drops an entry that
 * is no IP address with a log line, so pods then get no cluster DNS either.
 */
export function clusterDnsProblem(address: string, network: { readonly vpcId?: string; readonly vpcCidr?: string }): string | undefined {
  const ip = parseIpv4(address);
  if (ip === undefined) {
    return "must be an IPv4 address such as 169.254.20.10 (no host name, port or prefix): the cluster is IPv4, and the kubelet drops anything else";
  }
  const ranges = serviceCidrs(network);
  const inside = [...ranges, LINK_LOCAL_CIDR].some((text) => {
    const cidr = parseCidr(text);
    return cidr !== undefined && cidrContains(cidr, ip);
  });
  if (inside) return undefined;
  const where =
    ranges.length === 1
      ? `the cluster's service range ${ranges[0]} (EKS picks it for this VPC's range)`
      : `the cluster's service range (${ranges.join(" or ")}: EKS picks one from the existing VPC's range)`;
  return `is outside ${where} and the link-local ${LINK_LOCAL_CIDR}: no DNS server answers there, so every pod on these nodes would fail to resolve names; use the kube-dns Service's address (${ranges.map(kubeDnsAddress).join(" or ")}), NodeLocal DNSCache's (169.254.20.10), or leave clusterDNS out`;
}
