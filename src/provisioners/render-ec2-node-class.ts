import { DISCOVERY_TAG } from "../network/discovery-tag";
import { effectiveAmiSelectorTerms, isWindows, osFamily } from "./ami-selection";
import { defaultBlockDeviceMappings } from "./block-devices";
import type { EC2NodeClass, EC2NodeClassSpec, KubeletConfiguration } from "./karpenter-api";
import type { NodeClassConfig } from "./node-class-schema";
import { DEFAULT_ROOT_VOLUME_SIZE } from "./provisioner-defaults";

/** What an EC2NodeClass needs from the rest of the stack. */
export interface NodeClassContext {
  /** Subnets and security groups are found by the tag `karpenter.sh/discovery: <clusterName>`. */
  readonly clusterName: string;
  /** The node IAM role (name, not ARN) that Karpenter wraps in an instance profile. */
  readonly nodeRoleName: string;
  /** The role of Windows node classes: Windows nodes join with an access entry of their own type. */
  readonly windowsNodeRoleName: string;
  /** Tags for every instance, volume and launch template; the node class's own tags win. */
  readonly tags: Readonly<Record<string, string>>;
}

/** Drops undefined members so the manifest lists only what was set. */
function compact<T extends object>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as T;
}

export function renderEc2NodeClass(nodeClass: NodeClassConfig, context: NodeClassContext): EC2NodeClass {
  const discovery = [{ tags: { [DISCOVERY_TAG]: context.clusterName } }];
  const tags = { ...context.tags, ...nodeClass.tags };
  const amiSelectorTerms = effectiveAmiSelectorTerms(nodeClass).map((term) => compact({ ...term }));
  const windows = isWindows({ amiSelectorTerms, amiFamily: nodeClass.amiFamily });
  const spec: EC2NodeClassSpec = compact({
    amiFamily: nodeClass.amiFamily,
    amiSelectorTerms,
    // Exactly one of the two (a CEL rule of the CRD); the config check rejects both.
    role: nodeClass.instanceProfile === undefined ? (nodeClass.role ?? (windows ? context.windowsNodeRoleName : context.nodeRoleName)) : undefined,
    instanceProfile: nodeClass.instanceProfile,
    subnetSelectorTerms: discovery,
    securityGroupSelectorTerms: discovery,
    capacityReservationSelectorTerms: nodeClass.capacityReservationSelectorTerms?.map((term) => compact({ ...term })),
    metadataOptions: { ...nodeClass.metadataOptions },
    blockDeviceMappings:
      nodeClass.blockDeviceMappings?.map((m) => compact({ deviceName: m.deviceName, rootVolume: m.rootVolume, ebs: m.ebs && compact({ ...m.ebs }) })) ??
      defaultBlockDeviceMappings(osFamily({ amiSelectorTerms, amiFamily: nodeClass.amiFamily }), nodeClass.rootVolumeSize ?? DEFAULT_ROOT_VOLUME_SIZE),
    kubelet: nodeClass.kubelet && (compact({ ...nodeClass.kubelet }) as KubeletConfiguration),
    userData: nodeClass.userData,
    tags: Object.keys(tags).length > 0 ? tags : undefined,
  });
  return { apiVersion: "karpenter.k8s.aws/v1", kind: "EC2NodeClass", metadata: { name: nodeClass.name }, spec };
}
