import { EksFargateProfile } from "@cdktf/provider-aws/lib/eks-fargate-profile";
import type { Construct } from "constructs";

/** A kube-system Fargate profile in a bare test stack, for constructs that must be created after it. */
export function kubeSystemProfileIn(scope: Construct): EksFargateProfile {
  return new EksFargateProfile(scope, "kube-system", {
    clusterName: "demo",
    fargateProfileName: "kube-system",
    podExecutionRoleArn: "arn:aws:iam::123456789012:role/demo-fargate-pods",
    subnetIds: ["subnet-a"],
    selector: [{ namespace: "kube-system" }],
  });
}
