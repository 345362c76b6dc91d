// The configuration schemas EKS publishes for its add-ons (`aws eks describe-addon-configuration --addon-name
// <name> --addon-version <version> --query configurationSchema`), written out as the rules synth checks a
// config's `configurationValues` against. Each is dated and names the version and where it was read: EKS
// publishes one schema per add-on version, a cluster on `version: default` gets whatever EKS's default is
// when it applies, and newer versions add keys. So a key the dated schema lacks is a warning (with the command
// to read the schema of the version in use), while a value of the wrong type, a misspelt key close to a known
// one and an enum miss are refused: types and spellings do not change between versions.
// aws-ebs-csi-driver, eks-pod-identity-agent and metrics-server are left out: no whole published schema of
// theirs could be read offline; EKS still checks them when it applies.

/** The rules of one value, a small subset of JSON Schema. */
export type ValueRule =
  /** A JSON string; `format` as the schema's ("true"/"false", digits), `enum` when it lists values. */
  | { readonly type: "string"; readonly format?: "boolean" | "integer"; readonly enum?: readonly string[] }
  | { readonly type: "integer" }
  | { readonly type: "boolean" }
  | { readonly type: "array" }
  /** An object with known keys (`closed`: no others, as `additionalProperties: false` says), or any keys with `values`. */
  | { readonly type: "object"; readonly properties?: Readonly<Record<string, ValueRule>>; readonly closed?: boolean; readonly values?: ValueRule }
  /** Anything (an object or null the schema does not describe further, such as affinity). */
  | { readonly type: "any" };

export interface AddonSchema {
  readonly addon: string;
  /** The add-on version whose schema this is, and the versions where later keys appeared. */
  readonly version: string;
  /** Where the schema text was read (a copy of describe-addon-configuration's output), and when. */
  readonly source: string;
  readonly asOf: string;
  readonly root: ValueRule & { readonly type: "object" };
}

const STRING: ValueRule = { type: "string" };
const BOOLEAN_STRING: ValueRule = { type: "string", format: "boolean" };
const INTEGER_STRING: ValueRule = { type: "string", format: "integer" };
const ANY: ValueRule = { type: "any" };
const ANY_OBJECT: ValueRule = { type: "object" };

const QUANTITIES: ValueRule = { type: "object", closed: true, properties: { cpu: STRING, memory: STRING } };
const RESOURCES: ValueRule = { type: "object", closed: true, properties: { limits: QUANTITIES, requests: QUANTITIES } };

/** vpc-cni's env: every value a JSON string, most of them with a boolean or integer format. */
const VPC_CNI_ENV: Readonly<Record<string, ValueRule>> = {
  ...Object.fromEntries(
    [
      "ANNOTATE_POD_IP",
      "AWS_MANAGE_ENIS_NON_SCHEDULABLE",
      "AWS_VPC_CNI_NODE_PORT_SUPPORT",
      "AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG",
      "AWS_VPC_K8S_CNI_EXTERNALSNAT",
      "DISABLE_INTROSPECTION",
      "DISABLE_LEAKED_ENI_CLEANUP",
      "DISABLE_METRICS",
      "DISABLE_NETWORK_RESOURCE_PROVISIONING",
      "DISABLE_POD_V6",
      "ENABLE_BANDWIDTH_PLUGIN",
      "ENABLE_POD_ENI",
      "ENABLE_PREFIX_DELEGATION",
      "ENABLE_SUBNET_DISCOVERY",
      "ENABLE_V4_EGRESS",
      "ENABLE_V6_EGRESS",
    ].map((name) => [name, BOOLEAN_STRING]),
  ),
  ...Object.fromEntries(
    ["AWS_VPC_ENI_MTU", "IP_COOLDOWN_PERIOD", "MAX_ENI", "MINIMUM_IP_TARGET", "POD_MTU", "WARM_ENI_TARGET", "WARM_IP_TARGET", "WARM_PREFIX_TARGET"].map(
      (name) => [name, INTEGER_STRING],
    ),
  ),
  ...Object.fromEntries(
    [
      "ADDITIONAL_ENI_TAGS",
      "AWS_EC2_ENDPOINT",
      "AWS_EXTERNAL_SERVICE_CIDRS",
      "AWS_VPC_K8S_CNI_EXCLUDE_SNAT_CIDRS",
      "AWS_VPC_K8S_CNI_LOGLEVEL",
      "AWS_VPC_K8S_CNI_LOG_FILE",
      "AWS_VPC_K8S_CNI_RANDOMIZESNAT",
      "AWS_VPC_K8S_CNI_VETHPREFIX",
      "AWS_VPC_K8S_PLUGIN_LOG_FILE",
      "AWS_VPC_K8S_PLUGIN_LOG_LEVEL",
      "CLUSTER_ENDPOINT",
      "ENI_CONFIG_ANNOTATION_DEF",
      "ENI_CONFIG_LABEL_DEF",
      "INTROSPECTION_BIND_ADDRESS",
      "POD_SECURITY_GROUP_ENFORCING_MODE",
    ].map((name) => [name, STRING]),
  ),
  NETWORK_POLICY_ENFORCING_MODE: { type: "string", enum: ["standard", "strict"] },
};

export const ADDON_SCHEMAS: Readonly<Record<string, AddonSchema>> = {
  coredns: {
    addon: "coredns",
    version: "v1.11.1-eksbuild.8 (autoScaling from v1.11.1-eksbuild.11)",
    source:
      "describe-addon-configuration output quoted in terraform-aws-modules/terraform-aws-eks's add-on docs; autoScaling from awsdocs/amazon-eks-user-guide#768 and #772",
    asOf: "2024-08",
    root: {
      type: "object",
      closed: true,
      properties: {
        affinity: ANY,
        autoScaling: {
          type: "object",
          closed: true,
          properties: { enabled: { type: "boolean" }, minReplicas: { type: "integer" }, maxReplicas: { type: "integer" } },
        },
        computeType: STRING,
        corefile: STRING,
        nodeSelector: { type: "object", values: STRING },
        podAnnotations: ANY_OBJECT,
        podDisruptionBudget: ANY_OBJECT,
        podLabels: ANY_OBJECT,
        replicaCount: { type: "integer" },
        resources: RESOURCES,
        tolerations: { type: "array" },
        topologySpreadConstraints: { type: "array" },
      },
    },
  },
  "kube-proxy": {
    addon: "kube-proxy",
    version: "v1.28.8-eksbuild.5",
    source: "describe-addon-configuration output quoted in cloudbees/terraform-aws-cloudbees-ci-eks-addon's troubleshooting notes",
    asOf: "2024-06",
    root: {
      type: "object",
      closed: true,
      properties: {
        ipvs: { type: "object", closed: true, properties: { scheduler: STRING } },
        mode: { type: "string", enum: ["iptables", "ipvs"] },
        podAnnotations: ANY_OBJECT,
        podLabels: ANY_OBJECT,
        resources: RESOURCES,
      },
    },
  },
  "vpc-cni": {
    addon: "vpc-cni",
    version: "v1.15.1-eksbuild.1 (ENABLE_SUBNET_DISCOVERY, NETWORK_POLICY_ENFORCING_MODE and POD_MTU from v1.18.5-eksbuild.1)",
    source:
      "the AWS CLI reference's describe-addon-configuration example (v1.15.1); aws/amazon-vpc-cni-k8s#3059 and hashicorp/terraform-provider-aws#39577 (v1.18.5)",
    asOf: "2024-10",
    root: {
      type: "object",
      closed: true,
      properties: {
        affinity: ANY,
        enableNetworkPolicy: BOOLEAN_STRING,
        enableWindowsIpam: BOOLEAN_STRING,
        eniConfig: {
          type: "object",
          closed: true,
          properties: { create: { type: "boolean" }, region: STRING, subnets: { type: "object", values: ANY_OBJECT } },
        },
        env: { type: "object", closed: true, properties: VPC_CNI_ENV },
        init: {
          type: "object",
          closed: true,
          properties: { env: { type: "object", closed: true, properties: { DISABLE_TCP_EARLY_DEMUX: BOOLEAN_STRING, ENABLE_V6_EGRESS: BOOLEAN_STRING } } },
        },
        livenessProbeTimeoutSeconds: { type: "integer" },
        nodeAgent: {
          type: "object",
          closed: true,
          properties: {
            enableCloudWatchLogs: BOOLEAN_STRING,
            enablePolicyEventLogs: BOOLEAN_STRING,
            healthProbeBindAddr: INTEGER_STRING,
            metricsBindAddr: INTEGER_STRING,
          },
        },
        readinessProbeTimeoutSeconds: { type: "integer" },
        resources: RESOURCES,
        tolerations: { type: "array" },
      },
    },
  },
};
