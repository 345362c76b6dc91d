import { checkedString } from "../shared/schema-helpers";
import { partitionOf } from "./arns";

// The IAM principals a config names (access entries, cluster administrators, the secrets key's administrators):
// one rule for all three, as strict as IAM's own name rules, so that nothing but a role or user ARN reaches a
// policy or an access entry.

/**
 * An IAM role (with or without a path) or user. IAM names take letters, digits and `+=,.@_-`, paths `/` too.
 * @see https://docs.aws.amazon.com/IAM/latest/APIReference/API_CreateRole.html
 */
const IAM_PRINCIPAL = /^arn:(aws|aws-cn|aws-us-gov):iam::\d{12}:(role|user)\/[\w+=,.@/-]{1,512}$/;

/** How a field's messages word its principals. */
export interface PrincipalField {
  /** The role name an example ARN suggests ("team-a"). */
  readonly example: string;
  /** Who refuses an STS session there, and why ("access entries refuse (it is temporary)"). */
  readonly sessionRefused: string;
}

/** Why an ARN is no IAM role or user, or undefined. */
function principalArnProblem(arn: string, field: PrincipalField): string | undefined {
  const session = /^arn:[\w-]+:sts::(\d{12}):assumed-role\/([\w+=,.@-]+)\//.exec(arn);
  if (session !== null) {
    return `is an STS session, which ${field.sessionRefused}: use the role, arn:<partition>:iam::${session[1]}:role/${session[2]} (with its path, if it has one)`;
  }
  if (!IAM_PRINCIPAL.test(arn)) return `must be an IAM role or user ARN such as arn:aws:iam::123456789012:role/${field.example} (a role may have a path)`;
  return undefined;
}

/** A config field holding an IAM role or user ARN. */
export const iamPrincipalArn = (field: PrincipalField) => checkedString((arn) => principalArnProblem(arn, field));

/** Why a valid principal ARN cannot be used in `region` (another partition's), or undefined. */
export function principalPartitionProblem(arn: string, region: string): string | undefined {
  const { partition } = partitionOf(region);
  const given = arn.split(":")[1];
  return given === partition ? undefined : `is in partition ${given}, and ${region} is in ${partition}: use arn:${partition}:iam::...`;
}
