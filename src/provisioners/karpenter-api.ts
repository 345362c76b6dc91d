/**
 * The subset of Karpenter 1.14.1's v1 API that this project renders: `EC2NodeClass` (karpenter.k8s.aws/v1)
 * and `NodePool` (karpenter.sh/v1).
 *
 * Why our own interfaces rather than `@kubernetes-models/karpenter`'s: its 2.0.0 types were generated from
 * Karpenter 1.12, so they lack `consolidationPolicy: Balanced` and the `Gte`/`Lte` operators that 1.14
 * accepts. The EC2NodeClass interface here is checked against the package's type in
 * test/provisioners/api-types.test.ts, and every rendered object is run through the package's validate().
 *
 * @see https://github.com/aws/karpenter-provider-aws/tree/v1.14.1/pkg/apis/crds
 */

import type { AmiFamily } from "../shared/vocabulary/ami-families";
import type { RequirementOperator } from "../shared/vocabulary/requirement-operators";
import type { TaintEffect } from "../shared/vocabulary/taint-effects";

export interface AmiSelectorTerm {
  readonly alias?: string;
  readonly id?: string;
  readonly name?: string;
  readonly owner?: string;
  readonly ssmParameter?: string;
  readonly tags?: Readonly<Record<string, string>>;
}

export interface SelectorTerm {
  readonly id?: string;
  readonly tags?: Readonly<Record<string, string>>;
}

/** On-Demand Capacity Reservations (and Capacity Blocks) the node class may launch into. */
export interface CapacityReservationSelectorTerm {
  readonly id?: string;
  readonly ownerID?: string;
  readonly tags?: Readonly<Record<string, string>>;
  readonly instanceMatchCriteria?: "open" | "targeted";
}

export type VolumeType = "standard" | "io1" | "io2" | "gp2" | "sc1" | "st1" | "gp3";

export interface BlockDeviceMapping {
  readonly deviceName?: string;
  readonly rootVolume?: boolean;
  readonly ebs?: {
    readonly volumeSize?: string;
    readonly volumeType?: VolumeType;
    readonly iops?: number;
    readonly throughput?: number;
    readonly encrypted?: boolean;
    readonly kmsKeyID?: string;
    readonly snapshotID?: string;
    readonly deleteOnTermination?: boolean;
  };
}

export interface MetadataOptions {
  readonly httpEndpoint?: "enabled" | "disabled";
  readonly httpProtocolIPv6?: "enabled" | "disabled";
  readonly httpPutResponseHopLimit?: number;
  readonly httpTokens?: "required" | "optional";
}

/** The typed kubelet block of 1.14.1 (later releases make it free-form). */
export interface KubeletConfiguration {
  readonly clusterDNS?: readonly string[];
  readonly maxPods?: number;
  readonly podsPerCore?: number;
  readonly systemReserved?: Readonly<Record<string, string>>;
  readonly kubeReserved?: Readonly<Record<string, string>>;
  readonly evictionHard?: Readonly<Record<string, string>>;
  readonly evictionSoft?: Readonly<Record<string, string>>;
  readonly evictionSoftGracePeriod?: Readonly<Record<string, string>>;
  readonly evictionMaxPodGracePeriod?: number;
  readonly imageGCHighThresholdPercent?: number;
  readonly imageGCLowThresholdPercent?: number;
  readonly cpuCFSQuota?: boolean;
}

export interface EC2NodeClassSpec {
  readonly amiFamily?: AmiFamily;
  readonly amiSelectorTerms: readonly AmiSelectorTerm[];
  readonly role?: string;
  readonly instanceProfile?: string;
  readonly subnetSelectorTerms: readonly SelectorTerm[];
  readonly securityGroupSelectorTerms: readonly SelectorTerm[];
  readonly capacityReservationSelectorTerms?: readonly CapacityReservationSelectorTerm[];
  readonly metadataOptions?: MetadataOptions;
  readonly blockDeviceMappings?: readonly BlockDeviceMapping[];
  readonly kubelet?: KubeletConfiguration;
  readonly userData?: string;
  readonly tags?: Readonly<Record<string, string>>;
}

export interface EC2NodeClass {
  readonly apiVersion: "karpenter.k8s.aws/v1";
  readonly kind: "EC2NodeClass";
  readonly metadata: { readonly name: string };
  readonly spec: EC2NodeClassSpec;
}

export interface NodeSelectorRequirementWithMinValues {
  readonly key: string;
  readonly operator: RequirementOperator;
  readonly values?: readonly string[];
  readonly minValues?: number;
}

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: TaintEffect;
}

export type ConsolidationPolicy = "WhenEmpty" | "WhenEmptyOrUnderutilized" | "Balanced";

export type DisruptionReason = "Underutilized" | "Empty" | "Drifted";

export interface Budget {
  readonly nodes: string;
  readonly schedule?: string;
  readonly duration?: string;
  readonly reasons?: readonly DisruptionReason[];
}

export interface NodeClassReference {
  readonly group: "karpenter.k8s.aws";
  readonly kind: "EC2NodeClass";
  readonly name: string;
}

export interface NodePool {
  readonly apiVersion: "karpenter.sh/v1";
  readonly kind: "NodePool";
  readonly metadata: { readonly name: string };
  readonly spec: {
    readonly template: {
      readonly metadata?: { readonly labels?: Readonly<Record<string, string>> };
      readonly spec: {
        readonly nodeClassRef: NodeClassReference;
        readonly requirements: readonly NodeSelectorRequirementWithMinValues[];
        readonly taints?: readonly Taint[];
        readonly startupTaints?: readonly Taint[];
        readonly expireAfter?: string;
        readonly terminationGracePeriod?: string;
      };
    };
    readonly disruption: {
      readonly consolidationPolicy?: ConsolidationPolicy;
      readonly consolidateAfter: string;
      readonly budgets?: readonly Budget[];
    };
    readonly limits?: Readonly<Record<string, string>>;
    readonly weight?: number;
  };
}
