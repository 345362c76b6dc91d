import { DataAwsCallerIdentity } from "@cdktf/provider-aws/lib/data-aws-caller-identity";
import type { Construct } from "constructs";
import { partitionOf } from "./arns";

/** Where ARNs point: partition and region are known at synth; the account id only at plan. */
export interface AwsContext {
  readonly partition: string;
  readonly region: string;
  readonly dnsSuffix: string;
  readonly accountId: string;
  /** Who runs Terraform: an assumed-role session's ARN for a role (aws_iam_session_context gives the role). */
  readonly callerArn: string;
}

export function awsContext(scope: Construct, region: string): AwsContext {
  const identity = new DataAwsCallerIdentity(scope, "caller-identity");
  return { ...partitionOf(region), region, accountId: identity.accountId, callerArn: identity.arn };
}
