/**
 * The Karpenter release this project is written for, and the facts that follow from it. The controller IAM
 * policy (aws/controller-policy-statements.ts), the chart values (kubernetes/chart-values.ts) and the CRD
 * rules (src/provisioners/rules/) are that release's: change them together (docs/operations.md's Karpenter
 * upgrade procedure lists the steps).
 */
export const KARPENTER_VERSION = "1.14.1";

/** Both charts are pulled anonymously from ECR Public; the chart version has no "v" prefix. */
export const CHART_REPOSITORY = "oci://public.ecr.aws/karpenter";

/** The CRD chart, installed and upgraded before the controller (Helm never upgrades a chart's crds/ folder). */
export const CRD_RELEASE = { name: "karpenter-crd", chart: "karpenter-crd" } as const;

/** The controller chart. Its release name decides the service account's name (below). */
export const CONTROLLER_RELEASE = { name: "karpenter", chart: "karpenter" } as const;

/**
 * The service account the controller chart creates: the chart's fullname, which is the release name when
 * that contains the chart name ("karpenter"). The IRSA trust policy and the FlowSchemas name it.
 */
export const SERVICE_ACCOUNT = CONTROLLER_RELEASE.name;

/** Where the controller runs unless the config says otherwise; it gets its own Fargate profile. */
export const DEFAULT_NAMESPACE = "karpenter";

/**
 * Kubernetes minor versions that Karpenter 1.14 supports and EKS offers (Karpenter's compatibility matrix:
 * 1.36 needs >= 1.13; the oldest is the oldest EKS still runs, in extended support, on the date of
 * src/eks/kubernetes-version-support.ts: 1.30's ended on 2026-07-23).
 * @see https://karpenter.sh/v1.14/upgrading/compatibility/
 */
export const SUPPORTED_KUBERNETES_VERSIONS = ["1.31", "1.32", "1.33", "1.34", "1.35", "1.36"] as const;

export const DEFAULT_KUBERNETES_VERSION = "1.35";
