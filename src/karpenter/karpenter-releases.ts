import { Release } from "@cdktf/provider-helm/lib/release";
import { Construct } from "constructs";
import type { ClusterConfig } from "../config/schema";
import { toManifestYaml } from "../provisioners/manifest-yaml";
import { karpenterChartValues } from "./chart-values";

export interface KarpenterReleasesProps {
  readonly config: ClusterConfig;
  readonly clusterEndpoint: string;
  readonly controllerRoleArn: string;
  readonly interruptionQueueName: string;
}

const REPOSITORY = "oci://public.ecr.aws/karpenter";

/**
 * The two Karpenter charts. Helm installs a chart's crds/ folder on first install only and never upgrades
 * it, so the CRDs come from their own chart (karpenter-crd), upgraded like any release, and the controller
 * chart skips its copy.
 */
export class KarpenterReleases extends Construct {
  readonly crds: Release;
  readonly controller: Release;

  constructor(scope: Construct, id: string, props: KarpenterReleasesProps) {
    super(scope, id);
    const { config } = props;
    const common = {
      repository: REPOSITORY,
      // The chart version has no "v" prefix.
      version: config.karpenter.version,
      namespace: config.karpenter.namespace,
      // Pulled anonymously: an ECR Public token here would be a new value at every plan (a Helm upgrade at
      // every apply), a credential in state, and stale (403) when Helm reuses it on a later upgrade.
    };
    this.crds = new Release(this, "crds", { ...common, name: "karpenter-crd", chart: "karpenter-crd", createNamespace: true });
    const values = karpenterChartValues({
      config,
      clusterEndpoint: props.clusterEndpoint,
      controllerRoleArn: props.controllerRoleArn,
      interruptionQueueName: props.interruptionQueueName,
    });
    this.controller = new Release(this, "controller", {
      ...common,
      name: "karpenter",
      chart: "karpenter",
      skipCrds: true,
      // Wait for the controller to be ready, so NodePools are only applied to a running Karpenter.
      wait: true,
      timeout: 600,
      values: [toManifestYaml(values)],
      dependsOn: [this.crds],
    });
  }
}
