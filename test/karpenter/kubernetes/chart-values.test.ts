import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { karpenterChartValues } from "../../../src/karpenter/kubernetes/chart-values";

/** Every key documented in the karpenter chart's values.yaml at 1.14.1 (see the file's header for its source). */
const DOCUMENTED = new Set(
  fs
    .readFileSync(path.join(__dirname, "fixtures", "karpenter-1.14.1-chart-value-paths.txt"), "utf8")
    .split("\n")
    .filter((line) => line && !line.startsWith("#")),
);

/** A documented key with no documented children takes free-form content (annotations, resources, env). */
const isFreeForm = (key: string) => DOCUMENTED.has(key) && ![...DOCUMENTED].some((k) => k.startsWith(`${key}.`));

/** Dotted paths of every key we set; lists are leaves, as in the documented list. */
function paths(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => paths(v, prefix ? `${prefix}.${k}` : k));
}

/** A key is known when the chart documents it or it sits under a documented free-form key. */
function undocumented(values: object): string[] {
  return paths(values).filter((p) => {
    if (DOCUMENTED.has(p)) return false;
    const segments = p.split(".");
    return !segments.some((_, i) => isFreeForm(segments.slice(0, i + 1).join(".")));
  });
}

describe("karpenter chart values", () => {
  const values = karpenterChartValues({
    clusterName: "demo",
    region: "eu-west-1",
    settings: { replicas: 2, logLevel: "info" },
    clusterEndpoint: "https://example.eks.amazonaws.com",
    controllerRoleArn: "arn:aws:iam::123456789012:role/demo-karpenter-controller",
    interruptionQueueName: "demo-karpenter",
  });

  it("sets only keys the chart documents", () => {
    expect(undocumented(values)).toEqual([]);
  });

  it("sets the batch window only when the config does, under keys the chart documents", () => {
    const input = {
      clusterName: "demo",
      region: "eu-west-1",
      clusterEndpoint: "https://example.eks.amazonaws.com",
      controllerRoleArn: "arn:aws:iam::123456789012:role/demo-karpenter-controller",
      interruptionQueueName: "demo-karpenter",
    };
    const batched = karpenterChartValues({ ...input, settings: { replicas: 2, logLevel: "info", batchIdleDuration: "2s", batchMaxDuration: "30s" } });
    expect(batched.settings).toMatchObject({ batchIdleDuration: "2s", batchMaxDuration: "30s" });
    expect(undocumented(batched)).toEqual([]);
    expect(Object.keys(values.settings)).toEqual(["clusterName", "clusterEndpoint", "interruptionQueue"]);
  });

  it("would catch the legacy keys of pre-v1 charts", () => {
    expect(undocumented({ settings: { aws: { clusterName: "x" } }, webhook: { enabled: false } })).toEqual(["settings.aws.clusterName", "webhook.enabled"]);
  });

  it("configures Karpenter for Fargate and IRSA", () => {
    expect(parse(JSON.stringify(values))).toEqual({
      settings: { clusterName: "demo", clusterEndpoint: "https://example.eks.amazonaws.com", interruptionQueue: "demo-karpenter" },
      serviceAccount: { annotations: { "eks.amazonaws.com/role-arn": "arn:aws:iam::123456789012:role/demo-karpenter-controller" } },
      replicas: 2,
      logLevel: "info",
      dnsPolicy: "Default",
      controller: {
        env: [{ name: "AWS_REGION", value: "eu-west-1" }],
        resources: { requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "1", memory: "1Gi" } },
      },
    });
  });
});
