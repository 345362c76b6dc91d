import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { Testing } from "cdktf";
import { FlowSchemas } from "../../../src/karpenter/kubernetes/flow-schemas";

// Karpenter's getting-started guide (v1.14, "Preventing APIServer Request Throttling") gives these two
// FlowSchemas with KARPENTER_NAMESPACE substituted; written out here by hand as the guide prints them.
const upstream = (namespace: string) => [
  `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata:
  name: karpenter-leader-election
spec:
  distinguisherMethod:
    type: ByUser
  matchingPrecedence: 200
  priorityLevelConfiguration:
    name: leader-election
  rules:
    - resourceRules:
        - apiGroups:
            - coordination.k8s.io
          namespaces:
            - "*"
          resources:
            - leases
          verbs:
            - get
            - create
            - update
      subjects:
        - kind: ServiceAccount
          serviceAccount:
            name: karpenter
            namespace: ${namespace}
`,
  `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata:
  name: karpenter-workload
spec:
  distinguisherMethod:
    type: ByUser
  matchingPrecedence: 1000
  priorityLevelConfiguration:
    name: workload-high
  rules:
    - nonResourceRules:
        - nonResourceURLs:
            - "*"
          verbs:
            - "*"
      resourceRules:
        - apiGroups:
            - "*"
          clusterScope: true
          namespaces:
            - "*"
          resources:
            - "*"
          verbs:
            - "*"
      subjects:
        - kind: ServiceAccount
          serviceAccount:
            name: karpenter
            namespace: ${namespace}
`,
];

describe("FlowSchemas (construct in a bare stack)", () => {
  const json = JSON.parse(
    Testing.synthScope((scope) => {
      // Any resource stands for the controller release here: the manifests only depend on it.
      const controller = new IamRole(scope, "controller", { assumeRolePolicy: "{}" });
      new FlowSchemas(scope, "flow-schemas", { namespace: "autoscaling", controller });
    }),
  ) as { resource: { kubectl_manifest: Record<string, { yaml_body: string; depends_on: string[] }> } };
  const manifests = Object.values(json.resource.kubectl_manifest);

  it("applies Karpenter's two FlowSchemas as the guide writes them, for the configured namespace", () => {
    expect(manifests.map((m) => m.yaml_body).sort()).toEqual(upstream("autoscaling"));
  });

  it("applies them after the controller release, which creates the service account they name", () => {
    expect(manifests.map((m) => m.depends_on)).toEqual([["aws_iam_role.controller"], ["aws_iam_role.controller"]]);
  });
});
