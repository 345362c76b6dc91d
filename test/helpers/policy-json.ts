import type { PolicyCondition, PolicyStatement } from "../../src/iam/policy-statement";

/**
 * The policy JSON IAM would store, whitespace removed, for checking size limits (a managed policy may hold
 * 6,144 characters without whitespace). Terraform renders the same statements through
 * aws_iam_policy_document; this rendering is for measuring, and matches it field for field. Test-only: Terraform renders the real one.
 */
export function renderPolicyJson(statements: readonly PolicyStatement[]): string {
  return JSON.stringify({
    Version: "2012-10-17",
    Statement: statements.map((s) => ({
      Sid: s.sid,
      Effect: s.effect,
      ...(s.principals
        ? { Principal: Object.fromEntries(s.principals.map((p) => [p.type, p.identifiers.length === 1 ? p.identifiers[0] : p.identifiers])) }
        : {}),
      Action: s.actions.length === 1 ? s.actions[0] : s.actions,
      ...(s.resources ? { Resource: s.resources.length === 1 ? s.resources[0] : s.resources } : {}),
      ...(s.conditions && s.conditions.length > 0 ? { Condition: groupConditions(s.conditions) } : {}),
    })),
  });
}

function groupConditions(conditions: readonly PolicyCondition[]): Record<string, Record<string, string | readonly string[]>> {
  const grouped: Record<string, Record<string, string | readonly string[]>> = {};
  for (const c of conditions) {
    grouped[c.test] = { ...grouped[c.test], [c.variable]: c.values.length === 1 ? c.values[0] : c.values };
  }
  return grouped;
}

/** The size IAM counts against its limits: the JSON without whitespace. */
export function policySize(statements: readonly PolicyStatement[]): number {
  return renderPolicyJson(statements).length;
}
