/** IAM policy statements as typed data; constructs turn them into aws_iam_policy_document data sources. */

export interface PolicyCondition {
  /** The condition operator, e.g. StringEquals, StringLike, ArnLike, Bool. */
  readonly test: string;
  readonly variable: string;
  readonly values: readonly string[];
}

export interface PolicyPrincipal {
  readonly type: "Service" | "Federated" | "AWS" | "*";
  readonly identifiers: readonly string[];
}

export interface PolicyStatement {
  readonly sid: string;
  readonly effect: "Allow" | "Deny";
  readonly actions: readonly string[];
  readonly resources?: readonly string[];
  readonly principals?: readonly PolicyPrincipal[];
  readonly conditions?: readonly PolicyCondition[];
}
