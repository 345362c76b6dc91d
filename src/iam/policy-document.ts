import { DataAwsIamPolicyDocument } from "@cdktf/provider-aws/lib/data-aws-iam-policy-document";
import { Construct } from "constructs";
import type { PolicyStatement } from "./policy-statement";

/** An aws_iam_policy_document rendered from typed statements; `.json` is the document for a role or policy. */
export class PolicyDocument extends Construct {
  readonly json: string;

  constructor(scope: Construct, id: string, statements: readonly PolicyStatement[]) {
    super(scope, id);
    const document = new DataAwsIamPolicyDocument(this, "document", {
      statement: statements.map((s) => ({
        sid: s.sid,
        effect: s.effect,
        actions: [...s.actions],
        resources: s.resources ? [...s.resources] : undefined,
        principals: s.principals?.map((p) => ({ type: p.type, identifiers: [...p.identifiers] })),
        condition: s.conditions?.map((c) => ({ test: c.test, variable: c.variable, values: [...c.values] })),
      })),
    });
    this.json = document.json;
  }
}
