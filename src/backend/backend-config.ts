import { z } from "zod";
import { AWS_REGIONS } from "../config/aws-regions";
import { strictObject } from "../config/schema-helpers";

const BACKEND_FIELDS = {
  local: [],
  s3: ["bucket", "keyPrefix", "region"],
  cloud: ["organization", "project", "workspacePrefix", "hostname"],
} as const;

const REQUIRED_FIELDS: Readonly<Record<keyof typeof BACKEND_FIELDS, readonly string[]>> = { local: [], s3: ["bucket"], cloud: ["organization"] };

/** Where each stack keeps its Terraform state. Fields apply per type; the others are rejected. */
const rawBackendSchema = strictObject({
  /** local (default), s3 or cloud (HCP Terraform / Terraform Enterprise). */
  type: z.enum(["local", "s3", "cloud"]).default("local"),
  /** s3: the state bucket (it must exist; versioning on is strongly advised). */
  bucket: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: "must be an S3 bucket name: 3-63 lowercase letters, digits, '.' and '-'" })
    .optional(),
  /** s3: prefix of the state keys; each stack writes <keyPrefix>/<stack>.tfstate. Default autonomous-eks/<cluster name>. */
  keyPrefix: z
    .string()
    .regex(/^[A-Za-z0-9!_.*'()-]+(\/[A-Za-z0-9!_.*'()-]+)*$/, { error: "must be an S3 key prefix without leading or trailing '/', such as clusters/demo" })
    .optional(),
  /** s3: the bucket's region. Default: the cluster's region. */
  region: z.enum(AWS_REGIONS, { error: "must be an AWS region such as us-east-1" }).optional(),
  /** cloud: the HCP Terraform organization. */
  organization: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, { error: "must be an HCP Terraform organization name: letters, digits, '-' and '_'" })
    .optional(),
  /** cloud: the project the workspaces belong to. Default: the organization's default project. */
  project: z
    .string()
    .regex(/^[A-Za-z0-9 _-]{3,40}$/, { error: "must be an HCP Terraform project name: 3-40 letters, digits, spaces, '-' and '_'" })
    .optional(),
  /** cloud: prefix of the workspace names; each stack gets the workspace <prefix><stack>. Default "". */
  workspacePrefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]{0,40}$/, { error: "must be at most 40 letters, digits, '-' and '_'" })
    .optional(),
  /** cloud: Terraform Enterprise host. Default app.terraform.io. */
  hostname: z
    .string()
    .regex(/^[a-z0-9.-]+(:\d+)?$/, { error: "must be a host name such as app.terraform.io" })
    .optional(),
});

function checkBackendFields(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const type = typeof value.type === "string" && value.type in BACKEND_FIELDS ? (value.type as keyof typeof BACKEND_FIELDS) : undefined;
  if (!type) return;
  const allowed: readonly string[] = BACKEND_FIELDS[type];
  for (const key of Object.keys(BACKEND_FIELDS).flatMap((t) => BACKEND_FIELDS[t as keyof typeof BACKEND_FIELDS] as readonly string[])) {
    if (value[key] !== undefined && !allowed.includes(key)) {
      ctx.addIssue({
        code: "custom",
        path: [key],
        input: value[key],
        message: `does not apply to backend type ${type}; ${allowed.length ? `its fields are ${allowed.join(", ")}` : "it takes no other field"}`,
      });
    }
  }
  for (const key of REQUIRED_FIELDS[type]) {
    if (value[key] === undefined) ctx.addIssue({ code: "custom", path: [key], input: undefined, message: `is required for backend type ${type}` });
  }
}

export type BackendConfig =
  | { readonly type: "local" }
  | { readonly type: "s3"; readonly bucket: string; readonly keyPrefix?: string; readonly region?: string }
  | { readonly type: "cloud"; readonly organization: string; readonly project?: string; readonly workspacePrefix: string; readonly hostname?: string };

export const backendSchema = rawBackendSchema
  .superRefine((value, ctx) => checkBackendFields(value as Record<string, unknown>, ctx), { when: () => true })
  .transform((raw): BackendConfig => {
    switch (raw.type) {
      case "local":
        return { type: "local" };
      case "s3":
        return { type: "s3", bucket: raw.bucket!, keyPrefix: raw.keyPrefix, region: raw.region };
      case "cloud":
        return { type: "cloud", organization: raw.organization!, project: raw.project, workspacePrefix: raw.workspacePrefix ?? "", hostname: raw.hostname };
    }
  })
  .prefault({});
