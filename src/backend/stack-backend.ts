import { LocalBackend, TerraformStack } from "cdktf";
import { BackendConfig } from "./backend-config";

/**
 * Where a stack's state lives. Terraform runs in cdktf.out/stacks/<stack>, so the local state path climbs
 * three levels to the project folder: relative (no machine path in the synthesized JSON) and outside
 * cdktf.out (deleting it, or a clean synth, never loses state).
 */
export function configureBackend(stack: TerraformStack, stackName: string, backend: BackendConfig): void {
  switch (backend.type) {
    case "local":
      new LocalBackend(stack, { path: `../../../terraform.${stackName}.tfstate` });
      break;
  }
}
