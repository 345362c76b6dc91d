import { TerraformOutput, type TerraformStack } from "cdktf";

/** One output: a value downstream workspaces, run triggers and people read. Never a secret. */
export interface OutputSpec {
  readonly value: unknown;
  readonly description: string;
}

/**
 * Adds each output under exactly its name (staticId: no construct path or hash in front), so
 * `terraform output cluster_name` and `tfe_outputs` read the names docs/pipelines.md lists.
 */
export function addOutputs(stack: TerraformStack, outputs: Readonly<Record<string, OutputSpec>>): void {
  for (const [name, { value, description }] of Object.entries(outputs)) {
    new TerraformOutput(stack, name, { value, description, staticId: true });
  }
}
