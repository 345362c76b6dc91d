import { configWarnings } from "../../src/config/config-warnings";
import { clusterProblems } from "../helpers/problems";
import { config, findResource, readStack, resourcesOfType, synthApp } from "../helpers/synth-app";

// What the second security review and the fourth bad-input corpus found: each finding with the exact line a
// user reads, and a valid neighbour that stays quiet.

const warningsFor = (fields: Record<string, unknown>) => configWarnings(config({ cluster: { publicAccessCidrs: ["203.0.113.0/24"] }, ...fields }));
const TEAM = "arn:aws:iam::123456789012:role/team-a";

describe("access close to cluster-admin", () => {
  const nearAdmin = (index: number, grant: string, controllers: string) =>
    `access[${index}]: ${grant} can run pods under the service accounts of the controllers there (${controllers}) and act with their IAM roles and rights: close to cluster-admin; scope it to the team's own namespaces`;

  it("warns of edit or admin in kube-system, in Karpenter's namespace, through a wildcard, or cluster-wide", () => {
    expect(
      warningsFor({
        access: [
          { principalArn: TEAM, policy: "edit", namespaces: ["kube-system"] },
          { principalArn: "arn:aws:iam::123456789012:role/b", policy: "admin", namespaces: ["karpenter"] },
          { principalArn: "arn:aws:iam::123456789012:role/c", policy: "edit", namespaces: ["*"] },
          { principalArn: "arn:aws:iam::123456789012:role/d", policy: "admin" },
          { principalArn: "arn:aws:iam::123456789012:role/e", policy: "edit", namespaces: ["kube-*"] },
        ],
      }),
    ).toEqual([
      nearAdmin(0, "edit in kube-system", "aws-node, the EBS CSI controller in kube-system"),
      nearAdmin(1, "admin in karpenter", "Karpenter in karpenter"),
      nearAdmin(2, "edit in kube-system and karpenter", "aws-node, the EBS CSI controller in kube-system; Karpenter in karpenter"),
      nearAdmin(3, "admin cluster-wide", "aws-node, the EBS CSI controller in kube-system; Karpenter in karpenter"),
      nearAdmin(4, "edit in kube-system", "aws-node, the EBS CSI controller in kube-system"),
    ]);
  });

  it("follows Karpenter into kube-system when it runs there", () => {
    expect(warningsFor({ karpenter: { namespace: "kube-system" }, access: [{ principalArn: TEAM, policy: "edit", namespaces: ["kube-system"] }] })).toEqual([
      nearAdmin(0, "edit in kube-system", "aws-node, the EBS CSI controller, Karpenter in kube-system"),
    ]);
  });

  it("is quiet for a team's own namespaces, for view anywhere, and for cluster-admin (which says what it is)", () => {
    expect(
      warningsFor({
        access: [
          { principalArn: TEAM, policy: "edit", namespaces: ["team-a", "team-a-*"] },
          { principalArn: TEAM, policy: "view" },
          { principalArn: "arn:aws:iam::123456789012:role/platform", policy: "cluster-admin" },
        ],
      }),
    ).toEqual([]);
  });
});

describe("node classes that weaken the node's defences", () => {
  it("warns of IMDSv1, a hop limit above 1 and an unencrypted volume", () => {
    expect(
      warningsFor({
        nodeClasses: [
          {
            name: "default",
            metadataOptions: { httpTokens: "optional", httpPutResponseHopLimit: 2 },
            blockDeviceMappings: [{ deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "50Gi", encrypted: false } }],
          },
        ],
      }),
    ).toEqual([
      "nodeClasses[0].metadataOptions.httpTokens: optional allows IMDSv1, whose unauthenticated requests an SSRF bug in any pod can turn into the node's credentials; keep required unless an agent on the node cannot speak IMDSv2",
      "nodeClasses[0].metadataOptions.httpPutResponseHopLimit: 2 lets pods (one network hop past the node) reach the instance metadata service and the node role's credentials; keep 1, and give pods their own roles (IRSA or EKS Pod Identity)",
      "nodeClasses[0].blockDeviceMappings[0].ebs.encrypted: false leaves /dev/xvda unencrypted at rest (container images, emptyDir volumes, logs); remove it to encrypt with the account's EBS key, or name one in kmsKeyID",
    ]);
  });

  it("is quiet for IMDSv2 with hop limit 1 and encrypted volumes, written out", () => {
    expect(
      warningsFor({
        nodeClasses: [
          {
            name: "default",
            metadataOptions: { httpTokens: "required", httpPutResponseHopLimit: 1 },
            blockDeviceMappings: [{ deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "50Gi", encrypted: true } }],
          },
        ],
      }),
    ).toEqual([]);
  });

  it("warns of what looks like a credential in user data, by line, without repeating it", () => {
    const userData = [
      "#!/bin/bash",
      "export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE",
      'DB_PASSWORD="correct-horse-battery"',
      "echo '-----BEGIN RSA PRIVATE KEY-----' > /root/key",
      "TOKEN=$(aws ssm get-parameter --name /node/token --with-decryption --query Parameter.Value --output text)",
      'echo "${HOSTNAME}"',
    ].join("\n");
    const warnings = warningsFor({ nodeClasses: [{ name: "default", userData }] });
    const why =
      "user data is readable from every pod that reaches the instance metadata service and by anyone allowed ec2:DescribeInstanceAttribute, and it is kept in the Terraform state and the EC2NodeClass; fetch secrets at boot from Secrets Manager or SSM Parameter Store";
    expect(warnings).toEqual([
      `nodeClasses[0].userData: line 2 looks like it holds an AWS access key ID: ${why}`,
      `nodeClasses[0].userData: line 3 looks like it holds a password or secret set in clear: ${why}`,
      `nodeClasses[0].userData: line 4 looks like it holds a private key: ${why}`,
    ]);
    for (const warning of warnings) expect(warning).not.toMatch(/AKIA|horse/);
  });
});

describe("config checks of the fourth corpus", () => {
  it("holds the secrets key's administrators to the partition of the region, as the other principal fields", () => {
    expect(clusterProblems({ region: "eu-west-1", cluster: { secretsKeyAdministrators: ["arn:aws-cn:iam::123456789012:role/key-admin"] } })).toEqual([
      'cluster.secretsKeyAdministrators[0]: got "arn:aws-cn:iam::123456789012:role/key-admin"; is in partition aws-cn, and eu-west-1 is in aws: use arn:aws:iam::...',
    ]);
    expect(
      clusterProblems({
        region: "cn-north-1",
        network: { availabilityZones: ["cn-north-1a", "cn-north-1b"] },
        cluster: { secretsKeyAdministrators: ["arn:aws-cn:iam::123456789012:role/key-admin"] },
      }),
    ).toEqual([]);
  });

  it("holds every IAM ARN field to IAM's name characters: no Terraform expression reaches a policy", () => {
    const hostile = 'arn:aws:iam::123456789012:role/${file("/proc/self/environ")}';
    expect(
      clusterProblems({ cluster: { secretsKeyAdministrators: [hostile], adminPrincipalArns: [hostile] }, access: [{ principalArn: hostile, policy: "view" }] }),
    ).toEqual([
      `cluster.adminPrincipalArns[0]: got "arn:aws:iam::123456789012:role/\${file(\\"/proc/self/envir...; must be an IAM role or user ARN such as arn:aws:iam::123456789012:role/platform-admin (a role may have a path)`,
      `cluster.secretsKeyAdministrators[0]: got "arn:aws:iam::123456789012:role/\${file(\\"/proc/self/envir...; must be an IAM role or user ARN such as arn:aws:iam::123456789012:role/key-admin (a role may have a path)`,
      `access[0].principalArn: got "arn:aws:iam::123456789012:role/\${file(\\"/proc/self/envir...; must be an IAM role or user ARN such as arn:aws:iam::123456789012:role/team-a (a role may have a path)`,
    ]);
    expect(
      clusterProblems({ cluster: { secretsKeyAdministrators: ["arn:aws:iam::123456789012:role/security/key-admin", "arn:aws:iam::123456789012:user/alice"] } }),
    ).toEqual([]);
  });

  it("refuses an STS session as a key administrator, naming the role", () => {
    expect(clusterProblems({ cluster: { secretsKeyAdministrators: ["arn:aws:sts::123456789012:assumed-role/key-admin/alice"] } })).toEqual([
      'cluster.secretsKeyAdministrators[0]: got "arn:aws:sts::123456789012:assumed-role/key-admin/alice"; is an STS session, which a key policy would trust only until it expires: use the role, arn:<partition>:iam::123456789012:role/key-admin (with its path, if it has one)',
    ]);
  });

  it("points addons.coredns to the top-level coreDns section", () => {
    expect(clusterProblems({ addons: { coredns: { version: "latest" } } })).toEqual([
      "addons.coredns: unknown key; CoreDNS is configured in the top-level coreDns section (coreDns.version, coreDns.configurationValues), not under addons; allowed keys: vpc-cni, kube-proxy, eks-pod-identity-agent, aws-ebs-csi-driver, metrics-server",
    ]);
    expect(clusterProblems({ coreDns: { version: "latest" } })).toEqual([]);
  });
});

describe("the default security group of the VPC this project creates", () => {
  it("is managed with no rules on a new VPC, and left to its owner on an existing one", () => {
    const json = readStack(synthApp(config()), "demo-cluster");
    const [, group] = findResource(json, "aws_default_security_group");
    const [vpcId] = findResource(json, "aws_vpc");
    expect(group).toEqual({ vpc_id: `\${aws_vpc.${vpcId}.id}`, ingress: [], egress: [], tags: { Name: "demo-default-unused" } });
    const existing = readStack(
      synthApp(config({ network: { vpcId: "vpc-0abc", privateSubnetIds: ["subnet-01", "subnet-02"], publicSubnetIds: ["subnet-03"] } })),
      "demo-cluster",
    );
    expect(resourcesOfType(existing, "aws_default_security_group")).toEqual([]);
  });
});
