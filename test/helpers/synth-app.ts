import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ClusterConfig, ClusterConfigInput } from "../../src/config/cluster-schema";
import { parseClusterConfig } from "../../src/config/load-config";
import { buildStacks, createApp, synthesizeApp } from "../../src/stacks/autonomous-eks-app";

/** A synthesized Terraform JSON document. */
export interface TerraformJson {
  readonly resource?: Record<string, Record<string, Record<string, unknown>>>;
  readonly data?: Record<string, Record<string, Record<string, unknown>>>;
  readonly provider?: Record<string, unknown[]>;
  readonly terraform?: Record<string, unknown>;
  readonly output?: Record<string, unknown>;
}

export function config(input: Partial<ClusterConfigInput> = {}): ClusterConfig {
  return parseClusterConfig({ name: "demo", ...input }, "test");
}

/** Runs a real synth (validations, then app.synth()) into a fresh temporary folder; returns the folder. */
export function synthApp(clusterConfig: ClusterConfig, outdir = fs.mkdtempSync(path.join(os.tmpdir(), "aeks-synth-"))): string {
  const app = createApp({ outdir });
  buildStacks(app, clusterConfig);
  synthesizeApp(app);
  return outdir;
}

/** A stack's cdk.tf.json with cdktf's "//" metadata removed, as Testing.synth does. */
export function readStack(outdir: string, stackName: string): TerraformJson {
  return JSON.parse(fs.readFileSync(path.join(outdir, "stacks", stackName, "cdk.tf.json"), "utf8"), (key, value) => (key === "//" ? undefined : value));
}

/** The resources of one type, as [logical id, body] pairs. */
export function resourcesOfType(json: TerraformJson, type: string): [string, Record<string, unknown>][] {
  return Object.entries(json.resource?.[type] ?? {});
}

/** The only resource of a type, or the one whose properties match; fails loudly otherwise. */
export function findResource(
  json: TerraformJson,
  type: string,
  match: (body: Record<string, unknown>) => boolean = () => true,
): [string, Record<string, unknown>] {
  const found = resourcesOfType(json, type).filter(([, body]) => match(body));
  if (found.length !== 1) throw new Error(`expected exactly one ${type} matching, found ${found.length}`);
  return found[0];
}
