import { EksFargateProfile } from "@cdktf/provider-aws/lib/eks-fargate-profile";
import type { ITerraformDependable } from "cdktf";
import { Construct } from "constructs";

export interface FargateProfileSpec {
  readonly name: string;
  readonly namespaces: readonly string[];
  readonly labels?: Readonly<Record<string, string>>;
}

export interface FargateProfilesProps {
  readonly clusterName: string;
  readonly podExecutionRoleArn: string;
  /** Fargate runs pods in private subnets only. */
  readonly privateSubnetIds: readonly string[];
  /** In creation order; the first must be kube-system (CoreDNS waits for it). */
  readonly profiles: readonly FargateProfileSpec[];
  /** What the first profile waits for (the pod execution role's policy, for one). */
  readonly dependsOn: readonly ITerraformDependable[];
}

/** The Fargate profiles of the cluster, created one after another. */
export class FargateProfiles extends Construct {
  readonly byName: ReadonlyMap<string, EksFargateProfile>;

  constructor(scope: Construct, id: string, props: FargateProfilesProps) {
    super(scope, id);
    const byName = new Map<string, EksFargateProfile>();
    let previous: readonly ITerraformDependable[] = props.dependsOn;
    for (const spec of props.profiles) {
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
      byName.set(spec.name, profile);
      previous = [profile];
    }
    this.byName = byName;
  }
}
