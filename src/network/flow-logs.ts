import { CloudwatchLogGroup } from "@cdktf/provider-aws/lib/cloudwatch-log-group";
import { FlowLog } from "@cdktf/provider-aws/lib/flow-log";
import { IamRolePolicy } from "@cdktf/provider-aws/lib/iam-role-policy";
import { Construct } from "constructs";
import type { AwsContext } from "../iam/aws-context";
import { PolicyDocument } from "../iam/policy-document";
import { ServiceRole } from "../iam/service-role";
import type { ResourceNames } from "../shared/resource-names";

export interface VpcFlowLogsProps {
  readonly aws: AwsContext;
  readonly names: ResourceNames;
  readonly vpcId: string;
  readonly traffic: "REJECT" | "ALL" | "ACCEPT";
  readonly retentionDays: number;
}

/**
 * The VPC's flow logs, to a log group with a retention, delivered by a role that only VPC Flow Logs acting for
 * this account may assume (confused-deputy guard; the flow log's id is unknown before it exists, hence the
 * wildcard the guide allows) and that may only write that group.
 * @see https://docs.aws.amazon.com/vpc/latest/userguide/flow-logs-iam-role.html
 */
export class VpcFlowLogs extends Construct {
  readonly logGroup: CloudwatchLogGroup;

  constructor(scope: Construct, id: string, props: VpcFlowLogsProps) {
    super(scope, id);
    const { aws, names } = props;
    this.logGroup = new CloudwatchLogGroup(this, "log-group", { name: names.flowLogGroup, retentionInDays: props.retentionDays });
    const role = new ServiceRole(this, "role", {
      roleName: names.flowLogRole,
      description: `Delivers the flow logs of ${names.cluster}'s VPC`,
      trust: [
        {
          sid: "VpcFlowLogsAssumeRole",
          effect: "Allow",
          actions: ["sts:AssumeRole"],
          principals: [{ type: "Service", identifiers: ["vpc-flow-logs.amazonaws.com"] }],
          conditions: [
            { test: "StringEquals", variable: "aws:SourceAccount", values: [aws.accountId] },
            { test: "ArnLike", variable: "aws:SourceArn", values: [`arn:${aws.partition}:ec2:${aws.region}:${aws.accountId}:vpc-flow-log/*`] },
          ],
        },
      ],
      managedPolicyArns: [],
    });
    const policy = new PolicyDocument(this, "delivery-document", [
      {
        sid: "WriteFlowLogs",
        effect: "Allow",
        actions: ["logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"],
        resources: [`${this.logGroup.arn}:*`],
      },
      // A list action: it takes no log group as its resource.
      { sid: "FindLogGroup", effect: "Allow", actions: ["logs:DescribeLogGroups"], resources: ["*"] },
    ]);
    const delivery = new IamRolePolicy(this, "delivery", { name: "flow-log-delivery", role: role.role.name, policy: policy.json });
    new FlowLog(this, "flow-log", {
      vpcId: props.vpcId,
      trafficType: props.traffic,
      logDestinationType: "cloud-watch-logs",
      logDestination: this.logGroup.arn,
      iamRoleArn: role.role.arn,
      // The role must be able to write before the first delivery.
      dependsOn: [delivery],
      tags: { Name: `${names.cluster}-vpc` },
    });
  }
}
