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

/**
 * Node classes that weaken what keeps pods from the node's instance credentials (IMDSv2 with a hop limit of 1),
 * or store data unencrypted: valid, sometimes needed (an old agent that speaks only IMDSv1), never by accident.
 */
export function nodeClassSecurityWarnings(nodeClasses: readonly NodeClassConfig[]): string[] {
  return nodeClasses.flatMap((nodeClass, i) => {
    const warnings: string[] = [];
    const { httpTokens, httpPutResponseHopLimit } = nodeClass.metadataOptions;
    if (httpTokens === "optional") {
      warnings.push(
        `${formatPath(["nodeClasses", i, "metadataOptions", "httpTokens"])}: optional allows IMDSv1, whose unauthenticated requests an SSRF bug in any pod can turn into the node's credentials; keep required unless an agent on the node cannot speak IMDSv2`,
      );
    }
    if (httpPutResponseHopLimit > 1) {
      warnings.push(
        `${formatPath(["nodeClasses", i, "metadataOptions", "httpPutResponseHopLimit"])}: ${httpPutResponseHopLimit} lets pods (one network hop past the node) reach the instance metadata service and the node role's credentials; keep 1, and give pods their own roles (IRSA or EKS Pod Identity)`,
      );
    }
    (nodeClass.blockDeviceMappings ?? []).forEach((mapping, j) => {
      if (mapping.ebs?.encrypted === false) {
        warnings.push(
          `${formatPath(["nodeClasses", i, "blockDeviceMappings", j, "ebs", "encrypted"])}: false leaves ${mapping.deviceName} unencrypted at rest (container images, emptyDir volumes, logs); remove it to encrypt with the account's EBS key, or name one in kmsKeyID`,
        );
      }
    });
    if (nodeClass.userData !== undefined) {
      for (const found of credentialsIn(nodeClass.userData)) {
        warnings.push(
          `${formatPath(["nodeClasses", i, "userData"])}: line ${found.line} looks like it holds ${found.what}: user data is readable from every pod that reaches the instance metadata service and by anyone allowed ec2:DescribeInstanceAttribute, and it is kept in the Terraform state and the EC2NodeClass; fetch secrets at boot from Secrets Manager or SSM Parameter Store`,
        );
      }
    }
    return warnings;
  });
}

/** What credentials look like in a script: formats with a fixed shape, and a secret-named variable given a literal. */
const CREDENTIAL_SHAPES: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  { what: "an AWS access key ID", pattern: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { what: "a private key", pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  { what: "a GitHub token", pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/ },
  { what: "a Slack token", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  {
    what: "a password or secret set in clear",
    // NAME=value or NAME: value where the name says secret and the value is a literal, not $VAR or $(cmd).
    pattern: /\b[\w.-]*(password|passwd|secret|token|api[_-]?key|secret[_-]?access[_-]?key)\b["']?\s*[:=]\s*["']?(?![$"'\s])[^\s"']{6,}/i,
  },
];

/** The lines of a script that look like credentials, first shape found per line; the values are never repeated. */
function credentialsIn(script: string): { readonly line: number; readonly what: string }[] {
  return script.split("\n").flatMap((text, index) => {
    const shape = CREDENTIAL_SHAPES.find((s) => s.pattern.test(text));
    return shape === undefined ? [] : [{ line: index + 1, what: shape.what }];
  });
}
