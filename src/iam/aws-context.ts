import { DataAwsCallerIdentity } from "@cdktf/provider-aws/lib/data-aws-caller-identity";
import { DataAwsIamSessionContext } from "@cdktf/provider-aws/lib/data-aws-iam-session-context";
import type { Construct } from "constructs";
import { partitionOf } from "./arns";

/** Where ARNs point: partition and region are known at synth; the account id only at plan. */
export interface AwsContext {
  readonly partition: string;
  readonly region: string;
  readonly dnsSuffix: string;
  readonly accountId: string;
  /**
   * Who runs Terraform, as an IAM principal: the role of an assumed-role session (aws_iam_session_context
   * gives it; access entries and key policies take roles, not sessions), or the user. Read on first use.
   */
  readonly callerPrincipalArn: string;
}

export function awsContext(scope: Construct, region: string): AwsContext {
  const identity = new DataAwsCallerIdentity(scope, "caller-identity");
  let session: DataAwsIamSessionContext | undefined;
  return {
    ...partitionOf(region),
    region,
    accountId: identity.accountId,
    get callerPrincipalArn() {
      session ??= new DataAwsIamSessionContext(scope, "caller-session", { arn: identity.arn });
      return session.issuerArn;
    },
  };
}
