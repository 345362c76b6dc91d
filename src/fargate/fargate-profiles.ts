import { EksFargateProfile } from "@cdktf/provider-aws/lib/eks-fargate-profile";
import type { ITerraformDependable } from "cdktf";
import { Construct } from "constructs";
import type { FargateProfileSpec, SystemFargateProfiles } from "./fargate-config";

export interface FargateProfilesProps {
  readonly clusterName: string;
  readonly podExecutionRoleArn: string;
  /** Fargate runs pods in private subnets only. */
  readonly privateSubnetIds: readonly string[];
  /** The profiles of the system pods, created first (CoreDNS waits for kube-system). */
  readonly system: SystemFargateProfiles;
  /** The config's own profiles, after the system ones. */
  readonly extra: readonly FargateProfileSpec[];
  /** What the first profile waits for (the pod execution role's policy, for one). */
  readonly dependsOn: readonly ITerraformDependable[];
}

/** The Fargate profiles of the cluster, created one after another. */
export class FargateProfiles extends Construct {
  /** The profile that schedules CoreDNS: its fix (or add-on) must come after it. */
  readonly kubeSystem: EksFargateProfile;

  constructor(scope: Construct, id: string, props: FargateProfilesProps) {
    super(scope, id);
    let previous: readonly ITerraformDependable[] = props.dependsOn;
    const create = (spec: FargateProfileSpec): EksFargateProfile => {
      const profile = new EksFargateProfile(this, spec.name, {
        clusterName: props.clusterName,
        fargateProfileName: spec.name,
        podExecutionRoleArn: props.podExecutionRoleArn,
        subnetIds: [...props.privateSubnetIds],
        selector: spec.namespaces.map((namespace) => ({
          namespace,
          labels: spec.labels && Object.keys(spec.labels).length > 0 ? { ...spec.labels } : undefined,
        })),
        // Fargate profiles must be created sequentially: EKS allows one profile CREATING (or DELETING) per
        // cluster at a time and answers ResourceInUseException otherwise.
        dependsOn: [...previous],
      });
      previous = [profile];
      return profile;
    };
    this.kubeSystem = create(props.system.kubeSystem);
    if (props.system.karpenter !== undefined) create(props.system.karpenter);
    for (const spec of props.extra) create(spec);
  }
}
