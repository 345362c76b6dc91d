import { spawnSync } from "node:child_process";
import * as path from "node:path";
import type { NodeClassContext } from "../../src/provisioners/render-ec2-node-class";

/** The context the golden files were written for. */
export const CONTEXT: NodeClassContext = {
  clusterName: "demo",
  nodeRoleName: "demo-karpenter-node",
  windowsNodeRoleName: "demo-karpenter-windows-node",
  tags: { project: "autonomous-eks" },
};

export const VALIDATOR = path.join(__dirname, "validate-manifests.mjs");

/** Runs the ESM schema validator on YAML documents in a child process. */
export function validateManifests(yaml: string, ...files: string[]): { status: number | null; lines: string[] } {
  const result = spawnSync(process.execPath, [VALIDATOR, ...files], { input: yaml, encoding: "utf8", cwd: path.join(__dirname, "../..") });
  if (result.error) throw result.error;
  return { status: result.status, lines: `${result.stdout}${result.stderr}`.trim().split("\n") };
}
