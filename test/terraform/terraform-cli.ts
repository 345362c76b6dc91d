import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The terraform binary on PATH, or undefined: the real-Terraform tests need it and say so loudly. */
export function findTerraform(): string | undefined {
  const found = spawnSync("terraform", ["version"], { encoding: "utf8" });
  return found.status === 0 ? "terraform" : undefined;
}

const MIRROR_CANDIDATES = [
  process.env.TF_PLUGIN_MIRROR,
  "/opt/tf-plugins",
  path.join(os.homedir(), ".terraform.d", "plugins"),
  "/usr/share/terraform/plugins",
  "/usr/local/share/terraform/plugins",
];

/** A local filesystem mirror holding hashicorp/aws, when the machine has one (no network here). */
export function findProviderMirror(): string | undefined {
  return MIRROR_CANDIDATES.find((dir) => dir && fs.existsSync(path.join(dir, "registry.terraform.io", "hashicorp", "aws")));
}

/**
 * Environment for running terraform: a CLI config that installs hashicorp providers from the mirror, or,
 * without a mirror, an empty config so terraform downloads them.
 */
export function terraformEnv(workDir: string): NodeJS.ProcessEnv {
  const mirror = findProviderMirror();
  const cliConfig = path.join(workDir, "terraform.tfrc");
  fs.writeFileSync(
    cliConfig,
    mirror
      ? `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["registry.terraform.io/hashicorp/*"]\n  }\n  direct {\n    exclude = ["registry.terraform.io/hashicorp/*"]\n  }\n}\n`
      : "",
  );
  return { ...process.env, TF_CLI_CONFIG_FILE: cliConfig, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", TF_INPUT: "0" };
}

export interface TerraformResult {
  readonly status: number | null;
  readonly output: string;
}

export function terraform(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): TerraformResult {
  const result = spawnSync("terraform", [...args, "-no-color"], { cwd, env, encoding: "utf8", timeout: 300_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Copies a synthesized stack folder somewhere else, as a pipeline that consumes `cdktf synth` output would. */
export function copyStack(outdir: string, stackName: string): string {
  const target = fs.mkdtempSync(path.join(os.tmpdir(), `aeks-tf-${stackName}-`));
  fs.cpSync(path.join(outdir, "stacks", stackName), target, { recursive: true });
  return target;
}

/**
 * `describe` when Terraform is on PATH; otherwise `describe.skip`, said loudly: these are the tests that prove
 * Terraform accepts what synth writes.
 */
export function describeWithTerraform(name: string, body: () => void): void {
  if (findTerraform() !== undefined) {
    describe(name, body);
    return;
  }
  console.warn(`\n*** SKIPPED: no terraform binary on PATH; "${name}" did NOT run ***\n`);
  describe.skip(name, body);
}
