import { CloudBackend, LocalBackend, NamedCloudWorkspace, S3Backend, type TerraformStack } from "cdktf";
import { TERRAFORM_1_10 } from "../shared/terraform-version";
import type { BackendConfig } from "./backend-config";

export interface StackBackendProps {
  readonly stackName: string;
  readonly clusterName: string;
  /** The cluster's region: the default for the state bucket's. */
  readonly region: string;
  readonly backend: BackendConfig;
}

/** Where a stack's state lives; each stack has its own state (and its own workspace on HCP Terraform). */
export function configureBackend(stack: TerraformStack, props: StackBackendProps): void {
  const { backend, stackName } = props;
  switch (backend.type) {
    case "local":
      // Terraform runs in cdktf.out/stacks/<stack>: three levels up is the project folder. Relative, so no
      // machine path lands in the JSON; outside cdktf.out, so deleting it never loses state.
      new LocalBackend(stack, { path: `../../../terraform.${stackName}.tfstate` });
      break;
    case "s3": {
      const s3 = new S3Backend(stack, {
        bucket: backend.bucket,
        key: `${backend.keyPrefix ?? `autonomous-eks/${props.clusterName}`}/${stackName}.tfstate`,
        region: backend.region ?? props.region,
        encrypt: true,
      });
      // Native S3 locking (Terraform >= 1.10) replaces the DynamoDB table; cdktf 0.21 has no typed field.
      s3.addOverride("use_lockfile", true);
      stack.addOverride("terraform.required_version", TERRAFORM_1_10);
      break;
    }
    case "cloud":
      // A named workspace per stack: cdktf deploy and VCS-driven runs both map a stack to one workspace.
      new CloudBackend(stack, {
        organization: backend.organization,
        hostname: backend.hostname,
        workspaces: new NamedCloudWorkspace(`${backend.workspacePrefix}${stackName}`, backend.project),
      });
      break;
  }
}
