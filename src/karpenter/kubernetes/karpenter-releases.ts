import { Release } from "@cdktf/provider-helm/lib/release";
import type { ITerraformDependable } from "cdktf";
import { Construct } from "constructs";
import { toManifestYaml } from "../../kubernetes/manifest-yaml";
import { CHART_REPOSITORY, CONTROLLER_RELEASE, CRD_RELEASE } from "../karpenter-release";
import type { KarpenterSettings } from "../karpenter-settings";
import { type ChartValuesInput, karpenterChartValues } from "./chart-values";

export interface KarpenterReleasesProps extends ChartValuesInput {
  readonly settings: Pick<KarpenterSettings, "version" | "namespace" | "replicas" | "logLevel"> &
    Partial<Pick<KarpenterSettings, "batchIdleDuration" | "batchMaxDuration">>;
  /** The namespace resource, when this stack owns the namespace: the releases are installed into it. */
  readonly namespace?: ITerraformDependable;
}

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
    const common = {
      repository: CHART_REPOSITORY,
      version: props.settings.version,
      namespace: props.settings.namespace,
      // Pulled anonymously: an ECR Public token here would be a new value at every plan (a Helm upgrade at
      // every apply), a credential in state, and stale (403) when Helm reuses it on a later upgrade.
    };
    this.crds = new Release(this, "crds", { ...common, ...CRD_RELEASE, dependsOn: props.namespace && [props.namespace] });
    this.controller = new Release(this, "controller", {
      ...common,
      ...CONTROLLER_RELEASE,
      skipCrds: true,
      // Wait for the controller to be ready, so NodePools are only applied to a running Karpenter.
      wait: true,
      timeout: 600,
      values: [toManifestYaml(karpenterChartValues(props))],
      dependsOn: [this.crds],
    });
  }
}
