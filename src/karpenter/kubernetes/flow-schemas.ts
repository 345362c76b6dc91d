import type { ITerraformDependable } from "cdktf";
import { Construct } from "constructs";
import { kubernetesManifest } from "../../kubernetes/kubernetes-manifest";
import { type RenderedManifest, renderManifest } from "../../kubernetes/manifest-yaml";
import { SERVICE_ACCOUNT } from "../karpenter-release";

// FlowSchema (flowcontrol.apiserver.k8s.io/v1, served from Kubernetes 1.29): the fields used here.
// @see https://kubernetes.io/docs/reference/kubernetes-api/cluster-resources/flow-schema-v1/

interface ServiceAccountSubject {
  readonly kind: "ServiceAccount";
  readonly serviceAccount: { readonly name: string; readonly namespace: string };
}

interface ResourcePolicyRule {
  readonly apiGroups: readonly string[];
  readonly clusterScope?: boolean;
  readonly namespaces: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
}

interface NonResourcePolicyRule {
  readonly nonResourceURLs: readonly string[];
  readonly verbs: readonly string[];
}

interface PolicyRulesWithSubjects {
  readonly nonResourceRules?: readonly NonResourcePolicyRule[];
  readonly resourceRules?: readonly ResourcePolicyRule[];
  readonly subjects: readonly ServiceAccountSubject[];
}

export interface FlowSchema {
  readonly apiVersion: "flowcontrol.apiserver.k8s.io/v1";
  readonly kind: "FlowSchema";
  readonly metadata: { readonly name: string };
  readonly spec: {
    readonly distinguisherMethod: { readonly type: "ByUser" | "ByNamespace" };
    /** Lower wins: the schemas below must outrank the catch-all ones (workload-low is 9000, global-default 9900). */
    readonly matchingPrecedence: number;
    readonly priorityLevelConfiguration: { readonly name: string };
    readonly rules: readonly PolicyRulesWithSubjects[];
  };
}

/**
 * Outside kube-system, Karpenter's requests fall into the API server's lowest priority buckets and get
 * throttled under load. These two FlowSchemas, from Karpenter's getting-started guide, give its leader
 * election and its workload the priority it has in kube-system.
 * @see https://karpenter.sh/v1.14/getting-started/getting-started-with-karpenter/#preventing-apiserver-request-throttling
 */
export function karpenterFlowSchemas(namespace: string): readonly FlowSchema[] {
  const subjects: ServiceAccountSubject[] = [{ kind: "ServiceAccount", serviceAccount: { name: SERVICE_ACCOUNT, namespace } }];
  return [
    {
      apiVersion: "flowcontrol.apiserver.k8s.io/v1",
      kind: "FlowSchema",
      metadata: { name: "karpenter-leader-election" },
      spec: {
        distinguisherMethod: { type: "ByUser" },
        matchingPrecedence: 200,
        priorityLevelConfiguration: { name: "leader-election" },
        rules: [
          { resourceRules: [{ apiGroups: ["coordination.k8s.io"], namespaces: ["*"], resources: ["leases"], verbs: ["get", "create", "update"] }], subjects },
        ],
      },
    },
    {
      apiVersion: "flowcontrol.apiserver.k8s.io/v1",
      kind: "FlowSchema",
      metadata: { name: "karpenter-workload" },
      spec: {
        distinguisherMethod: { type: "ByUser" },
        matchingPrecedence: 1000,
        priorityLevelConfiguration: { name: "workload-high" },
        rules: [
          {
            nonResourceRules: [{ nonResourceURLs: ["*"], verbs: ["*"] }],
            resourceRules: [{ apiGroups: ["*"], clusterScope: true, namespaces: ["*"], resources: ["*"], verbs: ["*"] }],
            subjects,
          },
        ],
      },
    },
  ];
}

export interface FlowSchemasProps {
  readonly namespace: string;
  /** The release that creates the service account the FlowSchemas name. */
  readonly controller: ITerraformDependable;
}

/** The FlowSchemas of Karpenter's namespace, applied with kubectl after the release. */
export class FlowSchemas extends Construct {
  readonly manifests: readonly RenderedManifest<FlowSchema>[];

  constructor(scope: Construct, id: string, props: FlowSchemasProps) {
    super(scope, id);
    this.manifests = karpenterFlowSchemas(props.namespace).map(renderManifest);
    for (const manifest of this.manifests) kubernetesManifest(this, manifest, { dependsOn: [props.controller] });
  }
}
