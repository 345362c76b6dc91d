import type { KubeletSettings } from "../instance-catalogue/allocatable";
import type { Requirement } from "../instance-catalogue/requirements";
import type { CONSOLIDATION_POLICIES, DISRUPTION_REASONS } from "../provisioners/rules/crd-limits";
import type { TaintEffect } from "../shared/vocabulary/taint-effects";

// The planner's own view of a cluster: what cluster-model.ts (the one adapter to the rest of the project)
// derives from the cluster config and the NodePools synth renders. Everything downstream reads only this.

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: TaintEffect;
}

export interface NodeClassModel {
  readonly name: string;
  /** AL2023, Bottlerocket, Windows2022, ...: decides Karpenter's overhead rules. */
  readonly amiFamily: string;
  readonly os: "linux" | "windows";
  readonly kubelet: KubeletSettings;
  /** The bytes of ephemeral storage its nodes have, before kubelet's reservations: the root volume's size. */
  readonly ephemeralStorageBytes: number;
}

export type ConsolidationPolicy = (typeof CONSOLIDATION_POLICIES)[number];
export type DisruptionReason = (typeof DISRUPTION_REASONS)[number];

/** One of a NodePool's disruption budgets. */
export interface NodePoolBudget {
  /** A count ("5") or a percentage of the pool's nodes ("10%"). */
  readonly nodes: string;
  /** The reasons it limits; undefined: every reason. */
  readonly reasons?: readonly DisruptionReason[];
  /** A cron schedule (UTC) with a duration in minutes: the budget holds for that long after each start. */
  readonly schedule?: { readonly cron: string; readonly minutes: number };
}

/** A NodePool's spec.disruption, as consolidation reads it. */
export interface PoolDisruption {
  readonly pool: string;
  readonly policy: ConsolidationPolicy;
  /** consolidateAfter: Never turns consolidation off; any duration only delays it, and the end state waits it out. */
  readonly consolidateAfterNever: boolean;
  /** consolidateAfter in seconds: how long after its last pod event a node waits before it may be consolidated (0 when not given; unused with Never). */
  readonly consolidateAfterSeconds?: number;
  readonly budgets: readonly NodePoolBudget[];
}

export interface PoolModel {
  readonly name: string;
  /** Karpenter tries higher weights first; an unset weight is 0. */
  readonly weight: number;
  /** The rendered NodePool's spec.template.spec.requirements, as synth renders them. */
  readonly requirements: readonly Requirement[];
  /** spec.template.metadata.labels: on every node of the pool. */
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  /** Pool limits in planner units: cpu in millicores, memory in bytes, anything else as a count. */
  readonly limits: Readonly<Record<string, number>>;
  readonly nodeClass: NodeClassModel;
  /** How consolidation treats its nodes; the CRD's defaults (WhenEmptyOrUnderutilized, 10%) when undefined. */
  readonly disruption?: PoolDisruption;
}

export interface FargateSelector {
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
}

export interface FargateProfileModel {
  readonly name: string;
  readonly selectors: readonly FargateSelector[];
}

export interface PodResources {
  readonly cpuMillis: number;
  readonly memoryBytes: number;
}

/** Pods the design always runs: on Fargate (CoreDNS, Karpenter) or on every node (DaemonSets). */
export interface SystemPods {
  readonly name: string;
  readonly namespace: string;
  readonly replicas: number;
  readonly requests: PodResources;
  /** Where the numbers come from, for the reader of a plan. */
  readonly source: string;
  /** DaemonSets: nodes they stay off, beyond Windows and Fargate (the EBS CSI node plugin skips a1 types). */
  readonly excludes?: readonly Requirement[];
}

export interface ClusterModel {
  readonly name: string;
  readonly region: string;
  /** The zones nodes can launch in; undefined for an existing VPC, whose subnets the config does not name by zone. */
  readonly zones: readonly string[] | undefined;
  /** How many zones the nodes can launch in: the zones', or (an existing VPC) one per private subnet. */
  readonly zoneCount: number;
  /** In the order of the config. */
  readonly pools: readonly PoolModel[];
  readonly fargateProfiles: readonly FargateProfileModel[];
  /** CoreDNS and the Karpenter controller, on Fargate. */
  readonly fargateSystemPods: readonly SystemPods[];
  /** aws-node, kube-proxy and the DaemonSets of optional add-ons: on every Linux node (replicas is 1: one per node). */
  readonly nodeDaemonSets: readonly SystemPods[];
  readonly natGateways: number;
  /** The provisioner's batch window as the config sets it (karpenter.batchIdleDuration, batchMaxDuration); Karpenter's defaults where unset. */
  readonly provisioningBatch?: { readonly idleSeconds?: number; readonly maxSeconds?: number };
  /** The traffic the new VPC's flow logs record; undefined without flow logs (or an existing VPC). */
  readonly flowLogTraffic?: string;
  /** The support tier the control plane is billed at, on the date of EKS's calendar the project holds. */
  readonly controlPlaneSupport: "standard" | "extended";
  /** The first day the version is past standard support (YYYY-MM-DD). */
  readonly standardSupportEnds: string;
  /** True when that day is a lower bound (EKS had not published it): "at the earliest". */
  readonly standardSupportEndsIsEstimate: boolean;
  /** The cluster's upgradePolicy: with extended, EKS bills extended support once the version leaves standard support. */
  readonly upgradePolicy: "standard" | "extended";
  readonly kubernetesVersion: string;
}
