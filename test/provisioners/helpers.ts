import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { ConfigError } from "../../src/config/config-error";
import { parseClusterConfig } from "../../src/config/load-config";
import type { NodeClassContext } from "../../src/provisioners/render-ec2-node-class";

/** The context the golden files were written for. */
export const CONTEXT: NodeClassContext = { clusterName: "demo", nodeRoleName: "demo-karpenter-node", tags: { project: "autonomous-eks" } };

/** The problem lines the real config parser reports for a cluster named demo; [] when it is valid. */
export function problemsOf(config: Record<string, unknown>): readonly string[] {
  try {
    parseClusterConfig({ name: "demo", ...config }, "t.yaml");
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

export const VALIDATOR = path.join(__dirname, "validate-manifests.mjs");

/** Runs the ESM schema validator on YAML documents in a child process. */
export function validateManifests(yaml: string, ...files: string[]): { status: number | null; lines: string[] } {
  const result = spawnSync(process.execPath, [VALIDATOR, ...files], { input: yaml, encoding: "utf8", cwd: path.join(__dirname, "../..") });
  if (result.error) throw result.error;
  return { status: result.status, lines: `${result.stdout}${result.stderr}`.trim().split("\n") };
}
