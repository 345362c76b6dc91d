import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { type InstanceCatalogue, loadInstanceCatalogue } from "../../src/instance-catalogue/instance-catalogue";
import { clusterModelFromDocument } from "../../src/planner/cluster-model";
import { buildPlan } from "../../src/planner/plan/build-plan";
import type { Plan, ScenarioJson } from "../../src/planner/plan/plan-types";
import { readWorkload } from "../../src/planner/workload/read-workload";

export const FIXTURES = path.join(__dirname, "fixtures");

/** The warning every offline plan carries, written out. */
export const NO_SPOT_OFFLINE =
  "no spot prices offline: a node whose NodePool allows spot is shown as spot, since Karpenter launches spot whenever it is allowed and offered, and is priced at the on-demand rate, an upper bound (the on-demand-only scenario shows what on-demand costs). Run with --live for spot prices.";

/** Writes workload YAML to a temporary file. */
export function workloadFile(yaml: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "planner-plan-"));
  const file = path.join(dir, "workload.yaml");
  fs.writeFileSync(file, yaml);
  return file;
}

/** A plan from a config document (or YAML file) and workload YAML (or a path), on the committed catalogue or another. */
export function planOf(config: object | string, workload: string, catalogue: InstanceCatalogue = loadInstanceCatalogue()): Plan {
  const document = typeof config === "string" ? parse(fs.readFileSync(config, "utf8")) : config;
  const target = workload.includes("\n") ? workloadFile(workload) : workload;
  return buildPlan({
    cluster: clusterModelFromDocument(document, "test"),
    configSource: "test",
    catalogue,
    workload: readWorkload(target),
    workloadSource: "test",
  });
}

export function scenario(plan: Plan, name: string): ScenarioJson {
  const found = plan.json.scenarios.find((s) => s.name === name);
  if (found === undefined) throw new Error(`no scenario ${name}`);
  return found;
}

/** "3 x m5.2xlarge/31" per distinct node, for compact expectations. */
export function nodesOf(s: ScenarioJson): string[] {
  return s.nodes.map((n) => `${n.instanceType} ${n.capacityType} ${n.pods} pods`);
}

/** A Deployment of `replicas` pods with these requests and pod spec extras (YAML lines, 6 spaces deep). */
export function deployment(name: string, replicas: number, cpu: string, memory: string, extra = "", namespace = "default"): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name}, namespace: ${namespace} }
spec:
  replicas: ${replicas}
  template:
    metadata: { labels: { app: ${name} } }
    spec:
${extra}      containers: [{ name: c, resources: { requests: { cpu: "${cpu}", memory: "${memory}" } } }]
---
`;
}
