/**
 * The oldest Terraform the stacks need when they use ephemeral resources (the EKS token) or S3's native
 * locking (use_lockfile): both came in 1.10.
 */
export const TERRAFORM_1_10 = ">= 1.10.0";
