import type { KarpenterSettings } from "../karpenter-settings";

/**
 * The values this project sets on the karpenter chart (1.14.1), typed. Only v1 keys: the chart has no
 * values.schema.json, so a legacy key (settings.aws.*, webhook.*) would be silently ignored;
 * test/karpenter/kubernetes/chart-values.test.ts checks every key against the chart's documented values.
 * @see https://github.com/aws/karpenter-provider-aws/blob/v1.14.1/charts/karpenter/values.yaml
 */
export interface KarpenterChartValues {
  readonly settings: {
    readonly clusterName: string;
    /** Set explicitly: saves a DescribeCluster at start-up and works for private clusters. */
    readonly clusterEndpoint: string;
    /** The queue's name, not its ARN or URL. */
    readonly interruptionQueue: string;
    /** Set only when the config sets them: the chart's defaults (1s, 10s) otherwise. */
    readonly batchIdleDuration?: string;
    readonly batchMaxDuration?: string;
  };
  readonly serviceAccount: { readonly annotations: Readonly<Record<string, string>> };
  readonly replicas: number;
  readonly logLevel: string;
  /** The VPC resolver: Karpenter must start before CoreDNS has anywhere to run. */
  readonly dnsPolicy: "Default";
  readonly controller: {
    readonly env: readonly { readonly name: string; readonly value: string }[];
    readonly resources: {
      readonly requests: { readonly cpu: string; readonly memory: string };
      readonly limits: { readonly cpu: string; readonly memory: string };
    };
  };
}

export interface ChartValuesInput {
  readonly clusterName: string;
  readonly region: string;
  readonly settings: Pick<KarpenterSettings, "replicas" | "logLevel"> & Partial<Pick<KarpenterSettings, "batchIdleDuration" | "batchMaxDuration">>;
  readonly clusterEndpoint: string;
  readonly controllerRoleArn: string;
  readonly interruptionQueueName: string;
}

/**
 * Fargate sizes the pod's micro-VM from its requests; requests = limits gives a predictable 1 vCPU / 2 GB
 * Fargate size (1 GiB plus Fargate's 256 MiB overhead rounds up to 2 GB).
 */
export const CONTROLLER_RESOURCES = { cpu: "1", memory: "1Gi" } as const;

export function karpenterChartValues(input: ChartValuesInput): KarpenterChartValues {
  return {
    settings: {
      clusterName: input.clusterName,
      clusterEndpoint: input.clusterEndpoint,
      interruptionQueue: input.interruptionQueueName,
      ...(input.settings.batchIdleDuration === undefined ? {} : { batchIdleDuration: input.settings.batchIdleDuration }),
      ...(input.settings.batchMaxDuration === undefined ? {} : { batchMaxDuration: input.settings.batchMaxDuration }),
    },
    serviceAccount: { annotations: { "eks.amazonaws.com/role-arn": input.controllerRoleArn } },
    replicas: input.settings.replicas,
    logLevel: input.settings.logLevel,
    dnsPolicy: "Default",
    controller: {
      // Fargate has no instance metadata service to discover the region from; the controller panics without it.
      env: [{ name: "AWS_REGION", value: input.region }],
      resources: { requests: { ...CONTROLLER_RESOURCES }, limits: { ...CONTROLLER_RESOURCES } },
    },
  };
}
