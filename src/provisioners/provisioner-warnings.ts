import { formatPath } from "../shared/format-issues";
import { AL2_END_OF_SUPPORT, al2Aliases, eksAmiFamily, isWindowsNodeClass } from "./ami-selection";
import { BOTTLEROCKET_NVIDIA_OS_MIN_GIB, volumesOnAmiSnapshot } from "./block-devices";
import { sizeSentToEc2 } from "./ebs-volume-limits";
import type { NodeClassConfig } from "./node-class-schema";
import type { NodePoolConfig } from "./node-pool-schema";
import { DEFAULT_ROOT_VOLUME_SIZE } from "./provisioner-defaults";
import { WELL_KNOWN_VALUES } from "./rules/runtime-validation";

/**
 * Values Karpenter drops without failing: an `In` requirement on a label with known values that lists some
 * unknown ones beside known ones. Karpenter logs "please correct found invalid values, proceeding with
 * valid values" in its controller log, where nobody looks; a typo such as "on-demnad" then silently removes
 * the fallback it was meant to allow. (None known at all is an error: see node-pool-schema.)
 */
export function ignoredRequirementValues(pools: readonly NodePoolConfig[]): string[] {
  const warnings: string[] = [];
  pools.forEach((pool, i) => {
    pool.requirements.forEach((requirement, j) => {
      const known = WELL_KNOWN_VALUES[requirement.key];
      if (known === undefined || requirement.operator !== "In") return;
      const unknown = (requirement.values ?? []).filter((v) => !known.values.includes(v));
      if (unknown.length === 0 || unknown.length === requirement.values?.length) return;
      warnings.push(
        `nodePools[${i}].requirements[${j}].values: Karpenter ignores ${unknown.map((v) => `"${v}"`).join(", ")} (it knows ${known.values.join(", ")} for ${requirement.key}) and launches from the other values only`,
      );
    });
  });
  return warnings;
}

/** Amazon Linux 2 node classes (refused for Kubernetes 1.33 and later, where EKS has no AL2 AMI at all). */
export function amazonLinux2Warnings(nodeClasses: readonly NodeClassConfig[]): string[] {
  return nodeClasses.flatMap((nodeClass, i) =>
    al2Aliases(nodeClass).map(
      ({ alias, path }) =>
        `${formatPath(["nodeClasses", i, ...path])}: ${alias} selects Amazon Linux 2 AMIs, whose EKS support ended on ${AL2_END_OF_SUPPORT}: nodes get no further security updates; move to al2023@latest`,
    ),
  );
}

/**
 * Bottlerocket OS volumes that fit the standard variants' 2 GiB snapshot but not the NVIDIA variants' 4 GiB:
 * Karpenter picks the NVIDIA variant for GPU instance types, whose every launch EC2 would then refuse.
 */
export function bottlerocketOsVolumeWarnings(nodeClasses: readonly NodeClassConfig[]): string[] {
  return nodeClasses.flatMap((nodeClass, i) => {
    if (eksAmiFamily(nodeClass) !== "bottlerocket") return [];
    return volumesOnAmiSnapshot("bottlerocket", nodeClass, DEFAULT_ROOT_VOLUME_SIZE)
      .filter((v) => v.deviceName === "/dev/xvda" && sizeSentToEc2(v.volumeSize) < BOTTLEROCKET_NVIDIA_OS_MIN_GIB)
      .map(
        (v) =>
          `${formatPath(["nodeClasses", i, ...v.path])}: ${v.volumeSize} fits Bottlerocket's 2 GiB OS snapshot but not its NVIDIA variants' 4 GiB: GPU instance types would fail every launch; use 4Gi (Karpenter's default)`,
      );
  });
}

/**
 * Node classes without kubelet.maxPods while vpc-cni hands out prefixes: Karpenter still gives each node the
 * pod count of its network interfaces' secondary addresses (29 on an m5.large), not what the prefixes allow,
 * so nodes hold far fewer pods than they could and more of them are launched. EKS's max-pods calculator
 * recommends 110, or 250 for types of more than 30 vCPUs.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/cni-increase-ip-addresses.html
 * @see https://github.com/awslabs/amazon-eks-ami/blob/main/templates/al2/runtime/max-pods-calculator.sh
 */
export function prefixDelegationWarnings(nodeClasses: readonly NodeClassConfig[]): string[] {
  return nodeClasses.flatMap((nodeClass, i) =>
    nodeClass.kubelet?.maxPods === undefined && !isWindowsNodeClass(nodeClass)
      ? [
          `nodeClasses[${i}].kubelet.maxPods is unset while vpc-cni's ENABLE_PREFIX_DELEGATION is on: Karpenter gives each node the pod count of its network interfaces (29 on an m5.large), not what the prefixes allow, so nodes hold far fewer pods and more are launched (npm run plan counts the same); set kubelet.maxPods, 110 as EKS recommends (250 for types of more than 30 vCPUs)`,
        ]
      : [],
  );
}
