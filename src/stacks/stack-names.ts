/** The two Terraform stacks of a cluster; also the folder names under cdktf.out/stacks. */
export function stackNames(clusterName: string): { readonly cluster: string; readonly karpenter: string } {
  return { cluster: `${clusterName}-cluster`, karpenter: `${clusterName}-karpenter` };
}
