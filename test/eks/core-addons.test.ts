import { Testing } from "cdktf";
import { addonsSchema } from "../../src/eks/addon-settings";
import { CoreAddons } from "../../src/eks/core-addons";
import { resourceNames } from "../../src/shared/resource-names";
import { kubeSystemProfileIn } from "../helpers/kube-system-profile";

interface SynthJson {
  readonly resource: Record<string, Record<string, Record<string, unknown>>>;
  readonly data?: Record<string, Record<string, Record<string, unknown>>>;
}

/** The add-ons of a bare stack holding only the construct, for an `addons` section as a user writes it. */
function synthAddons(addons: unknown, windowsNodes = false): SynthJson {
  return JSON.parse(
    Testing.synthScope((scope) => {
      const kubeSystemProfile = kubeSystemProfileIn(scope);
      new CoreAddons(scope, "addons", {
        aws: {
          partition: "aws",
          region: "us-east-1",
          dnsSuffix: "amazonaws.com",
          accountId: "123456789012",
          callerPrincipalArn: "arn:aws:iam::123456789012:user/ci",
        },
        names: resourceNames("demo"),
        cluster: { name: "demo", version: "1.35" },
        settings: addonsSchema.parse(addons),
        oidc: {
          providerArn: "arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/X",
          issuerHost: "oidc.eks.us-east-1.amazonaws.com/id/X",
        },
        kubeSystemProfile,
        windowsNodes,
      });
    }),
  );
}

const addonsOf = (json: SynthJson) => Object.values(json.resource.aws_eks_addon);
const addon = (json: SynthJson, name: string) => addonsOf(json).find((a) => a.addon_name === name);

describe("CoreAddons (construct in a bare stack)", () => {
  it("installs vpc-cni and kube-proxy at EKS's default version for the cluster's Kubernetes version", () => {
    const json = synthAddons(undefined);
    expect(
      addonsOf(json)
        .map((a) => a.addon_name)
        .sort(),
    ).toEqual(["kube-proxy", "vpc-cni"]);
    const versions = Object.entries(json.data?.aws_eks_addon_version ?? {});
    expect(versions.map(([, v]) => v).sort((a, b) => String(a.addon_name).localeCompare(String(b.addon_name)))).toEqual([
      { addon_name: "kube-proxy", kubernetes_version: "1.35", most_recent: false },
      { addon_name: "vpc-cni", kubernetes_version: "1.35", most_recent: false },
    ]);
    const [vpcCniVersionId] = versions.find(([, v]) => v.addon_name === "vpc-cni") ?? [];
    expect(addon(json, "vpc-cni")).toMatchObject({
      addon_version: `\${data.aws_eks_addon_version.${vpcCniVersionId}.version}`,
      resolve_conflicts_on_create: "OVERWRITE",
      resolve_conflicts_on_update: "OVERWRITE",
    });
  });

  it("takes the newest version on `latest`, and a pinned version as it is", () => {
    const json = synthAddons({ "vpc-cni": { version: "latest" }, "kube-proxy": { version: "v1.33.0-eksbuild.2" } });
    expect(Object.values(json.data?.aws_eks_addon_version ?? {})).toEqual([{ addon_name: "vpc-cni", kubernetes_version: "1.35", most_recent: true }]);
    expect(addon(json, "kube-proxy")?.addon_version).toBe("v1.33.0-eksbuild.2");
  });

  it("installs the optional add-ons listed, those with a Deployment after the kube-system Fargate profile", () => {
    const json = synthAddons({ "eks-pod-identity-agent": {}, "aws-ebs-csi-driver": {}, "metrics-server": {} });
    expect(
      addonsOf(json)
        .map((a) => a.addon_name)
        .sort(),
    ).toEqual(["aws-ebs-csi-driver", "eks-pod-identity-agent", "kube-proxy", "metrics-server", "vpc-cni"]);
    expect(addon(json, "metrics-server")?.depends_on).toEqual(["aws_eks_fargate_profile.kube-system"]);
    expect(addon(json, "eks-pod-identity-agent")?.depends_on).toBeUndefined();
    expect(addon(json, "aws-ebs-csi-driver")?.depends_on).toEqual([
      "aws_eks_fargate_profile.kube-system",
      expect.stringMatching(/^aws_iam_role_policy_attachment\.addons_ebs-csi-driver-role_attach-AmazonEBSCSIDriverPolicy/),
    ]);
  });

  it("gives the EBS CSI controller an IRSA role that only its service account may assume, with AWS's EBS CSI policy", () => {
    const json = synthAddons({ "aws-ebs-csi-driver": {} });
    const [roleId, role] = Object.entries(json.resource.aws_iam_role)[0];
    expect(role.name).toBe("demo-ebs-csi-driver");
    expect(addon(json, "aws-ebs-csi-driver")?.service_account_role_arn).toBe(`\${aws_iam_role.${roleId}.arn}`);
    const trust = Object.values(json.data?.aws_iam_policy_document ?? {})[0];
    expect(trust.statement).toEqual([
      {
        sid: "EbsCsiControllerWebIdentity",
        effect: "Allow",
        actions: ["sts:AssumeRoleWithWebIdentity"],
        principals: [{ type: "Federated", identifiers: ["arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/X"] }],
        condition: [
          { test: "StringEquals", variable: "oidc.eks.us-east-1.amazonaws.com/id/X:sub", values: ["system:serviceaccount:kube-system:ebs-csi-controller-sa"] },
          { test: "StringEquals", variable: "oidc.eks.us-east-1.amazonaws.com/id/X:aud", values: ["sts.amazonaws.com"] },
        ],
      },
    ]);
    expect(Object.values(json.resource.aws_iam_role_policy_attachment).map((a) => a.policy_arn)).toEqual([
      "arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy",
      // aws-node's own role (every cluster has one).
      "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy",
    ]);
  });

  it("switches on Windows IPAM through the vpc-cni add-on when there are Windows nodes, and only then", () => {
    expect(JSON.parse(String(addon(synthAddons(undefined, true), "vpc-cni")?.configuration_values))).toEqual({ enableWindowsIpam: "true" });
    expect(addon(synthAddons(undefined, false), "vpc-cni")?.configuration_values).toBeUndefined();
  });
});
