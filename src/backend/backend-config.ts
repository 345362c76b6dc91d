import { z } from "zod";
import { AWS_REGIONS } from "../shared/aws-regions";
import { checkedString, strictObject, withChecks } from "../shared/schema-helpers";

/**
 * S3's naming rules beyond the characters: no two adjacent periods, no IP address, and the prefixes and
 * suffixes S3 keeps for its own kinds of names (access point aliases, directory and table buckets, ...).
 * @see https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html
 */
const RESERVED_BUCKET_PREFIXES = ["xn--", "sthree-", "amzn-s3-demo-"] as const;
const RESERVED_BUCKET_SUFFIXES = ["-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"] as const;

function bucketNameProblem(name: string): string | undefined {
  const breaks = (rule: string) => `breaks S3's naming rules: ${rule}; S3 would refuse it, and terraform init would fail`;
  if (name.includes("..")) return breaks("no two adjacent periods");
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return breaks("not formatted as an IP address");
  const prefix = RESERVED_BUCKET_PREFIXES.find((p) => name.startsWith(p));
  if (prefix !== undefined) return breaks(`the prefix ${prefix} is reserved`);
  const suffix = RESERVED_BUCKET_SUFFIXES.find((p) => name.endsWith(p));
  if (suffix !== undefined) return breaks(`the suffix ${suffix} is reserved`);
  return undefined;
}

/** Where each stack keeps its Terraform state. Fields apply per type; the others are rejected. */
const backendFields = strictObject({
  type: z.enum(["local", "s3", "cloud"]).default("local").meta({
    description:
      "`local`: `terraform.<stack>.tfstate` in the project folder, reached by the relative path `../../../` from `cdktf.out/stacks/<stack>` (no machine path in the JSON; deleting `cdktf.out` loses no state; a stack folder copied elsewhere looks for its state three folders up from there). `s3`: one key per stack, `encrypt = true`, native S3 locking (`use_lockfile`, Terraform >= 1.10; no DynamoDB table); enable versioning on the bucket. `cloud`: HCP Terraform or Terraform Enterprise, a named workspace per stack (`<prefix><name>-cluster`, `<prefix><name>-karpenter`); synth checks `terraform version` (cdktf's validation for this backend). See docs/pipelines.md.",
  }),
  bucket: checkedString(
    bucketNameProblem,
    z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: "must be an S3 bucket name: 3-63 lowercase letters, digits, '.' and '-'" }),
  )
    .optional()
    .meta({ defaultText: "required for s3", description: "s3: the state bucket (it must exist; versioning on is strongly advised)." }),
  keyPrefix: z
    .string()
    .regex(/^[A-Za-z0-9!_.*'()-]+(\/[A-Za-z0-9!_.*'()-]+)*$/, { error: "must be an S3 key prefix without leading or trailing '/', such as clusters/demo" })
    .optional()
    .meta({ defaultText: "`autonomous-eks/<name>`", description: "s3: prefix of the state keys; each stack writes `<keyPrefix>/<stack>.tfstate`." }),
  region: z
    .enum(AWS_REGIONS, { error: "must be an AWS region such as us-east-1" })
    .optional()
    .meta({ defaultText: "the cluster's", description: "s3: the bucket's region." }),
  organization: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, { error: "must be an HCP Terraform organization name: letters, digits, '-' and '_'" })
    .optional()
    .meta({ defaultText: "required for cloud", description: "cloud: the HCP Terraform organization." }),
  project: z
    .string()
    .regex(/^[A-Za-z0-9 _-]{3,40}$/, { error: "must be an HCP Terraform project name: 3-40 letters, digits, spaces, '-' and '_'" })
    .optional()
    .meta({ defaultText: "the default project", description: "cloud: the project the workspaces belong to." }),
  workspacePrefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]{0,40}$/, { error: "must be at most 40 letters, digits, '-' and '_'" })
    .optional()
    .meta({ defaultText: '`""`', description: "cloud: prefix of the workspace names; each stack gets the workspace `<prefix><stack>`." }),
  executionMode: z.enum(["remote", "agent", "local"]).optional().meta({
    defaultText: "`remote`",
    description:
      "cloud: where the workspaces run Terraform, as they are set in HCP Terraform (synth cannot set it; it decides which warnings apply). `remote`: HCP Terraform's own runners, whose addresses it does not publish, so a narrowed `cluster.publicAccessCidrs` or a private endpoint locks the Karpenter stack out of the API. `agent`: an HCP Terraform agent you run, in or next to the VPC. `local`: plans and applies run where you run Terraform. See docs/pipelines.md.",
  }),
  hostname: z
    .string()
    .regex(/^[a-z0-9.-]+(:\d+)?$/, { error: "must be a host name such as app.terraform.io" })
    .optional()
    .meta({ defaultText: "`app.terraform.io`", description: "cloud: the Terraform Enterprise host." }),
});

type BackendFields = z.output<typeof backendFields>;
type BackendField = Exclude<keyof BackendFields, "type">;

const FIELDS_BY_TYPE: Readonly<Record<BackendFields["type"], readonly BackendField[]>> = {
  local: [],
  s3: ["bucket", "keyPrefix", "region"],
  cloud: ["organization", "project", "workspacePrefix", "executionMode", "hostname"],
};

const REQUIRED_BY_TYPE: Readonly<Record<BackendFields["type"], readonly BackendField[]>> = { local: [], s3: ["bucket"], cloud: ["organization"] };

const ALL_FIELDS = Object.values(FIELDS_BY_TYPE).flat();

export type BackendConfig =
  | { readonly type: "local" }
  | { readonly type: "s3"; readonly bucket: string; readonly keyPrefix?: string; readonly region?: string }
  | {
      readonly type: "cloud";
      readonly organization: string;
      readonly project?: string;
      readonly workspacePrefix: string;
      readonly executionMode: "remote" | "agent" | "local";
      readonly hostname?: string;
    };

/** A field the checks above made sure is set. */
function requiredField(value: string | undefined, field: BackendField): string {
  if (value === undefined) throw new Error(`backend.${field} is unset after validation; the backend checks should have reported it`);
  return value;
}

export const backendSchema = withChecks(backendFields, [
  {
    reads: ["type", ...ALL_FIELDS],
    check: (backend, report) => {
      const allowed = FIELDS_BY_TYPE[backend.type];
      for (const field of ALL_FIELDS) {
        if (backend[field] !== undefined && !allowed.includes(field)) {
          report(
            [field],
            backend[field],
            `does not apply to backend type ${backend.type}; ${allowed.length ? `its fields are ${allowed.join(", ")}` : "it takes no other field"}`,
          );
        }
      }
      for (const field of REQUIRED_BY_TYPE[backend.type]) {
        if (backend[field] === undefined) report([field], undefined, `is required for backend type ${backend.type}`);
      }
    },
  },
])
  .transform((backend): BackendConfig => {
    switch (backend.type) {
      case "local":
        return { type: "local" };
      case "s3":
        return { type: "s3", bucket: requiredField(backend.bucket, "bucket"), keyPrefix: backend.keyPrefix, region: backend.region };
      case "cloud":
        return {
          type: "cloud",
          organization: requiredField(backend.organization, "organization"),
          project: backend.project,
          workspacePrefix: backend.workspacePrefix ?? "",
          executionMode: backend.executionMode ?? "remote",
          hostname: backend.hostname,
        };
    }
  })
  .prefault({})
  .meta({ title: "Terraform state", description: "Where each stack keeps its Terraform state; the fields of another type are rejected." });
