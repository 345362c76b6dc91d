import type { ClusterConfig } from "../config/cluster-schema";
import { loadClusterConfig, parseClusterConfig, readClusterConfigFile } from "../config/load-config";
import type { EC2NodeClass } from "../provisioners/karpenter-api";
import { clusterNodeClassContext, renderProvisioners } from "../provisioners/render-provisioners";
import { bytes, GIB } from "../shared/quantity";
import { aliasFamilyToAmiFamily } from "../shared/vocabulary/ami-families";

// The ephemeral storage each node class gives its nodes, read from the EC2NodeClasses synth renders, as
// Karpenter's AWS provider derives it: the size of the block device marked rootVolume, else of the device the
// AMI family keeps kubelet's data on (Bottlerocket: /dev/xvdb, Windows: /dev/sda1, the others /dev/xvda), else
// 20Gi. A door beside cluster-model.ts (which the planner's ClusterModel comes through) for what the model
// does not carry yet: by node class name, in bytes of capacity (the simulation takes kubelet's share off).
// @see aws/karpenter-provider-aws v1.14.1 pkg/providers/instancetype/types.go (ephemeralStorage)
// @see aws/karpenter-provider-aws v1.14.1 pkg/providers/amifamily (EphemeralBlockDevice, DefaultEBS)

/** Karpenter's default EBS volume size, when no mapping says otherwise (amifamily.DefaultEBS). */
const DEFAULT_EBS_BYTES = 20 * GIB;

function ephemeralDevice(spec: EC2NodeClass["spec"]): string {
  const alias = spec.amiSelectorTerms.find((t) => t.alias !== undefined)?.alias;
  const family = spec.amiFamily ?? (alias === undefined ? "AL2023" : aliasFamilyToAmiFamily(alias.split("@")[0].toLowerCase()));
  return family === "Bottlerocket" ? "/dev/xvdb" : family.startsWith("Windows") ? "/dev/sda1" : "/dev/xvda";
}

/** The bytes of ephemeral storage a node of this node class has (before kubelet's reservations). */
export function nodeClassEphemeralStorage(nodeClass: EC2NodeClass): number {
  const mappings = nodeClass.spec.blockDeviceMappings ?? [];
  const sized = (m: (typeof mappings)[number] | undefined) => (m?.ebs?.volumeSize === undefined ? undefined : bytes(m.ebs.volumeSize));
  const device = ephemeralDevice(nodeClass.spec);
  return sized(mappings.find((m) => m.rootVolume === true)) ?? sized(mappings.find((m) => m.deviceName === device)) ?? DEFAULT_EBS_BYTES;
}

/** Every node class of a config, by name: its nodes' ephemeral storage in bytes. */
export function ephemeralStorageByNodeClass(config: ClusterConfig): ReadonlyMap<string, number> {
  const rendered = renderProvisioners(config, clusterNodeClassContext(config));
  return new Map(rendered.nodeClasses.map((c) => [c.object.metadata.name, nodeClassEphemeralStorage(c.object)]));
}

/** The same for a config document (parsed YAML or an object), as tests and tools give one. */
export const ephemeralStorageOfDocument = (document: unknown, source: string): ReadonlyMap<string, number> =>
  ephemeralStorageByNodeClass(parseClusterConfig(document, source));

/** The same for the config a plan reads (loadClusterModel's: --config, else CLUSTER_CONFIG, else the embedded default), once it loaded. */
export function loadEphemeralStorage(configPath: string | undefined, env: NodeJS.ProcessEnv): ReadonlyMap<string, number> {
  return ephemeralStorageByNodeClass(configPath === undefined ? loadClusterConfig(env) : readClusterConfigFile(configPath));
}
