import { config, findResource, readStack, resourcesOfType, synthApp, type TerraformJson } from "../../helpers/synth-app";

function documentOf(json: TerraformJson, reference: unknown): Record<string, unknown>[] {
  const id = String(reference).match(/data\.aws_iam_policy_document\.([^.]+)\.json/)![1];
  return json.data!.aws_iam_policy_document[id].statement as Record<string, unknown>[];
}

describe("Karpenter's AWS side", () => {
  const json = readStack(synthApp(config({ karpenter: { namespace: "autoscaling" } })), "demo-cluster");
  const [queueId, queue] = findResource(json, "aws_sqs_queue");
  const [oidcId] = findResource(json, "aws_iam_openid_connect_provider");

  it("trusts only the karpenter service account of the configured namespace, through the cluster's OIDC provider", () => {
    const [, role] = findResource(json, "aws_iam_role", (r) => r.name === "demo-karpenter-controller");
    const issuer = `\${replace(aws_iam_openid_connect_provider.${oidcId}.url, "https://", "")}`;
    expect(documentOf(json, role.assume_role_policy)).toEqual([
      {
        sid: "KarpenterServiceAccountWebIdentity",
        effect: "Allow",
        actions: ["sts:AssumeRoleWithWebIdentity"],
        principals: [{ type: "Federated", identifiers: [`\${aws_iam_openid_connect_provider.${oidcId}.arn}`] }],
        condition: [
          { test: "StringEquals", variable: `${issuer}:sub`, values: ["system:serviceaccount:autoscaling:karpenter"] },
          { test: "StringEquals", variable: `${issuer}:aud`, values: ["sts.amazonaws.com"] },
        ],
      },
    ]);
  });

  it("attaches the six controller policies to the controller role", () => {
    const [roleId] = findResource(json, "aws_iam_role", (r) => r.name === "demo-karpenter-controller");
    const policies = resourcesOfType(json, "aws_iam_policy");
    expect(policies.map(([, p]) => p.name).sort()).toEqual(
      ["eks-integration", "iam-integration", "interruption", "node-lifecycle", "resource-discovery", "zonal-shift"].map((n) => `demo-karpenter-${n}`),
    );
    const attached = resourcesOfType(json, "aws_iam_role_policy_attachment").filter(([, a]) => a.role === `\${aws_iam_role.${roleId}.name}`);
    expect(attached.map(([, a]) => a.policy_arn).sort()).toEqual(policies.map(([id]) => `\${aws_iam_policy.${id}.arn}`).sort());
  });

  it("scopes PassRole to the node role and queue actions to this queue", () => {
    const [nodeRoleId] = findResource(json, "aws_iam_role", (r) => r.name === "demo-karpenter-node");
    const [, iamPolicy] = findResource(json, "aws_iam_policy", (p) => p.name === "demo-karpenter-iam-integration");
    expect(documentOf(json, iamPolicy.policy)[0]).toMatchObject({ sid: "AllowPassingInstanceRole", resources: [`\${aws_iam_role.${nodeRoleId}.arn}`] });
    const [, interruption] = findResource(json, "aws_iam_policy", (p) => p.name === "demo-karpenter-interruption");
    expect(documentOf(json, interruption.policy)[0]).toMatchObject({ resources: [`\${aws_sqs_queue.${queueId}.arn}`] });
  });

  it("keeps interruption messages five minutes, SQS-encrypted", () => {
    expect(queue).toEqual({ name: "demo-karpenter", message_retention_seconds: 300, sqs_managed_sse_enabled: true });
  });

  it("lets only its five EventBridge rules send (aws:SourceArn), and denies access without TLS", () => {
    const [, queuePolicy] = findResource(json, "aws_sqs_queue_policy");
    expect(queuePolicy.queue_url).toBe(`\${aws_sqs_queue.${queueId}.url}`);
    const ruleArns = resourcesOfType(json, "aws_cloudwatch_event_rule").map(([id]) => `\${aws_cloudwatch_event_rule.${id}.arn}`);
    expect(ruleArns).toHaveLength(5);
    const [send, ...rest] = documentOf(json, queuePolicy.policy) as Record<string, unknown>[];
    expect({ ...send, condition: undefined }).toEqual({
      sid: "AllowEventBridgeToSend",
      effect: "Allow",
      actions: ["sqs:SendMessage"],
      resources: [`\${aws_sqs_queue.${queueId}.arn}`],
      principals: [{ type: "Service", identifiers: ["events.amazonaws.com"] }],
      condition: undefined,
    });
    const [sourceArn] = send.condition as { test: string; variable: string; values: string[] }[];
    expect({ ...sourceArn, values: [...sourceArn.values].sort() }).toEqual({ test: "ArnEquals", variable: "aws:SourceArn", values: ruleArns.sort() });
    expect(rest).toEqual([
      {
        sid: "DenyHTTP",
        effect: "Deny",
        actions: ["sqs:*"],
        resources: [`\${aws_sqs_queue.${queueId}.arn}`],
        principals: [{ type: "*", identifiers: ["*"] }],
        condition: [{ test: "Bool", variable: "aws:SecureTransport", values: ["false"] }],
      },
    ]);
  });

  it("routes the five interruption event types to the queue", () => {
    const rules = resourcesOfType(json, "aws_cloudwatch_event_rule");
    // Synthesized JSON is sorted by logical id; compare by rule name.
    expect(rules.map(([, r]) => [r.name, JSON.parse(String(r.event_pattern))]).sort()).toEqual(
      [
        ["demo-karpenter-health", { source: ["aws.health"], "detail-type": ["AWS Health Event"] }],
        ["demo-karpenter-spot", { source: ["aws.ec2"], "detail-type": ["EC2 Spot Instance Interruption Warning"] }],
        ["demo-karpenter-rebalance", { source: ["aws.ec2"], "detail-type": ["EC2 Instance Rebalance Recommendation"] }],
        ["demo-karpenter-state-change", { source: ["aws.ec2"], "detail-type": ["EC2 Instance State-change Notification"] }],
        ["demo-karpenter-reservation", { source: ["aws.ec2"], "detail-type": ["EC2 Capacity Reservation Instance Interruption Warning"] }],
      ].sort(),
    );
    const targets = resourcesOfType(json, "aws_cloudwatch_event_target");
    expect(targets.map(([, t]) => t.rule).sort()).toEqual(rules.map(([id]) => `\${aws_cloudwatch_event_rule.${id}.name}`).sort());
    for (const [, target] of targets) expect(target).toMatchObject({ arn: `\${aws_sqs_queue.${queueId}.arn}`, target_id: "KarpenterInterruptionQueueTarget" });
  });

  it("creates the Spot service-linked role only when asked", () => {
    expect(resourcesOfType(json, "aws_iam_service_linked_role")).toEqual([]);
    const withRole = readStack(synthApp(config({ karpenter: { createSpotServiceLinkedRole: true } })), "demo-cluster");
    expect(findResource(withRole, "aws_iam_service_linked_role")[1]).toEqual({ aws_service_name: "spot.amazonaws.com" });
  });
});
