import { CloudwatchLogGroup } from "@cdktf/provider-aws/lib/cloudwatch-log-group";
import { EksAccessEntry } from "@cdktf/provider-aws/lib/eks-access-entry";
import { EksAccessPolicyAssociation } from "@cdktf/provider-aws/lib/eks-access-policy-association";
import type { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import type { EksFargateProfile } from "@cdktf/provider-aws/lib/eks-fargate-profile";
import { LambdaFunction } from "@cdktf/provider-aws/lib/lambda-function";
import { LambdaInvocation } from "@cdktf/provider-aws/lib/lambda-invocation";
import { SecurityGroup } from "@cdktf/provider-aws/lib/security-group";
import { VpcSecurityGroupEgressRule } from "@cdktf/provider-aws/lib/vpc-security-group-egress-rule";
import { VpcSecurityGroupIngressRule } from "@cdktf/provider-aws/lib/vpc-security-group-ingress-rule";
import { AssetType, TerraformAsset } from "cdktf";
import { Construct } from "constructs";
import { accessPolicyArn, managedPolicyArn } from "../iam/arns";
import type { AwsContext } from "../iam/aws-context";
import { ServiceRole } from "../iam/service-role";
import type { ResourceNames } from "../shared/resource-names";
import { bundleCoreDnsFix } from "./lambda-bundle";

export interface CoreDnsFixLambdaProps {
  readonly aws: AwsContext;
  readonly names: ResourceNames;
  readonly cluster: EksCluster;
  readonly clusterSecurityGroupId: string;
  readonly vpcId: string;
  readonly privateSubnetIds: readonly string[];
  /** The profile that schedules CoreDNS on Fargate; the fix runs after it, and again when it is replaced. */
  readonly kubeSystemProfile: EksFargateProfile;
  /** Whether the Lambda reaches the API server through the private endpoint (else through NAT). */
  readonly privateEndpoint: boolean;
  readonly logRetentionDays: number;
}

/**
 * The original project's design, done safely: a Lambda in the private subnets removes CoreDNS's
 * `eks.amazonaws.com/compute-type` annotation and restarts it, so its pods land on Fargate. It signs its
 * own EKS token with its own role, whose access entry may only edit kube-system; nothing secret is passed
 * to it, so nothing secret reaches Terraform state.
 */
export class CoreDnsFixLambda extends Construct {
  readonly invocation: LambdaInvocation;

  constructor(scope: Construct, id: string, props: CoreDnsFixLambdaProps) {
    super(scope, id);
    const { aws, names, cluster } = props;

    const role = new ServiceRole(this, "role", {
      roleName: names.coreDnsRole,
      description: `Moves CoreDNS of ${names.cluster} to Fargate`,
      trust: [
        {
          sid: "LambdaAssumeRole",
          effect: "Allow",
          actions: ["sts:AssumeRole"],
          principals: [{ type: "Service", identifiers: ["lambda.amazonaws.com"] }],
          // Only Lambda acting for this account. Not aws:SourceArn: Lambda checks that it can assume the role
          // when the function is created, and that check is reported to fail on a function ARN condition
          // (terraform-aws-modules/terraform-aws-lambda#771 adds aws:SourceAccount alone for this reason).
          conditions: [{ test: "StringEquals", variable: "aws:SourceAccount", values: [aws.accountId] }],
        },
      ],
      // ENIs in the VPC and its own log stream; no other AWS API is called.
      managedPolicyArns: [managedPolicyArn(aws.partition, "service-role/AWSLambdaVPCAccessExecutionRole")],
    });
    const accessEntry = new EksAccessEntry(this, "access-entry", { clusterName: cluster.name, principalArn: role.role.arn, type: "STANDARD" });
    // Edit in kube-system only: enough to read and patch the coredns Deployment, nothing cluster-wide. It
    // cannot be narrower: EKS's managed access policies stop at View (no patch) and Edit, and a Kubernetes
    // Role bound to a group would need a Kubernetes provider in this stack, which calls AWS only (the second
    // stack exists because such a provider needs the cluster first). docs/security.md, CoreDNS Lambda.
    const accessPolicy = new EksAccessPolicyAssociation(this, "access-policy", {
      clusterName: cluster.name,
      principalArn: accessEntry.principalArn,
      policyArn: accessPolicyArn(aws.partition, "AmazonEKSEditPolicy"),
      accessScope: { type: "namespace", namespaces: ["kube-system"] },
    });

    const securityGroup = new SecurityGroup(this, "security-group", {
      name: names.coreDnsFunction,
      description: `CoreDNS fix Lambda of ${names.cluster}: HTTPS to the Kubernetes API only`,
      vpcId: props.vpcId,
      tags: { Name: names.coreDnsFunction },
    });
    // Terraform removes a security group's default allow-all egress: this rule is the function's only way out.
    const egress = new VpcSecurityGroupEgressRule(this, "egress-api", {
      securityGroupId: securityGroup.id,
      ipProtocol: "tcp",
      fromPort: 443,
      toPort: 443,
      ...(props.privateEndpoint
        ? { description: "Kubernetes API (private endpoint)", referencedSecurityGroupId: props.clusterSecurityGroupId }
        : // Public endpoint only: the API server's addresses are public and change; NAT carries the traffic.
          { description: "Kubernetes API (public endpoint, via NAT)", cidrIpv4: "0.0.0.0/0" }),
    });
    // The EKS-managed cluster security group admits only itself; the private endpoint's ENIs carry it.
    const ingress = new VpcSecurityGroupIngressRule(this, "cluster-ingress", {
      securityGroupId: props.clusterSecurityGroupId,
      description: "CoreDNS fix Lambda to the Kubernetes API",
      ipProtocol: "tcp",
      fromPort: 443,
      toPort: 443,
      referencedSecurityGroupId: securityGroup.id,
    });

    const logGroup = new CloudwatchLogGroup(this, "log-group", { name: `/aws/lambda/${names.coreDnsFunction}`, retentionInDays: props.logRetentionDays });
    const bundle = bundleCoreDnsFix();
    const asset = new TerraformAsset(this, "code", { path: bundle.zipPath, type: AssetType.FILE });
    const fn = new LambdaFunction(this, "function", {
      functionName: names.coreDnsFunction,
      description: `Moves CoreDNS of ${names.cluster} to Fargate (removes the compute-type annotation, restarts, waits)`,
      role: role.role.arn,
      runtime: "nodejs22.x",
      architectures: ["arm64"],
      handler: "index.handler",
      filename: asset.path,
      sourceCodeHash: bundle.sha256,
      // Fargate takes one to two minutes per CoreDNS pod; the handler's own deadline is 10 s shorter.
      timeout: 600,
      memorySize: 256,
      environment: {
        variables: {
          CLUSTER_NAME: cluster.name,
          CLUSTER_ENDPOINT: cluster.endpoint,
          // The cluster's public CA certificate (not a secret): TLS is verified against it.
          CLUSTER_CA_DATA: cluster.certificateAuthority.get(0).data,
        },
      },
      vpcConfig: { subnetIds: [...props.privateSubnetIds], securityGroupIds: [securityGroup.id] },
      dependsOn: [...role.attachments, logGroup],
    });

    this.invocation = new LambdaInvocation(this, "invocation", {
      functionName: fn.functionName,
      // Identifiers only: input and result are stored in Terraform state in plain text.
      input: JSON.stringify({ cluster: names.cluster }),
      // The resource (not the data source, which would restart CoreDNS at every plan) runs once, and again
      // only when the kube-system profile is replaced or the code changes.
      triggers: { kubeSystemProfile: props.kubeSystemProfile.arn, code: bundle.sha256 },
      // Without the access policy, or either rule, the first attempts would only burn the retry budget.
      dependsOn: [props.kubeSystemProfile, accessPolicy, ingress, egress],
    });
  }
}
