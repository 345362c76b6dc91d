import type { ITerraformDependable } from "cdktf";
import { Construct } from "constructs";
import { KARPENTER_SERVICE_ACCOUNT } from "./controller-role";
import { kubernetesManifest } from "./kubernetes-manifest";

/** A FlowSchema (flowcontrol.apiserver.k8s.io/v1, served from Kubernetes 1.29). */
export interface FlowSchema {
  readonly apiVersion: "flowcontrol.apiserver.k8s.io/v1";
  readonly kind: "FlowSchema";
  readonly metadata: { readonly name: string };
  readonly spec: Record<string, unknown>;
}

/**
 * Outside kube-system, Karpenter's requests fall into the API server's lowest priority buckets and get
 * throttled under load. These two FlowSchemas, from Karpenter's getting-started guide, give its leader
 * election and its workload the priority it has in kube-system.
 * @see https://karpenter.sh/v1.14/getting-started/getting-started-with-karpenter/#preventing-apiserver-request-throttling
 */
export function karpenterFlowSchemas(namespace: string): readonly FlowSchema[] {
  const subjects = [{ kind: "ServiceAccount", serviceAccount: { name: KARPENTER_SERVICE_ACCOUNT, namespace } }];
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
  constructor(scope: Construct, id: string, props: FlowSchemasProps) {
    super(scope, id);
    for (const flowSchema of karpenterFlowSchemas(props.namespace)) kubernetesManifest(this, flowSchema, { dependsOn: [props.controller] });
  }
}
