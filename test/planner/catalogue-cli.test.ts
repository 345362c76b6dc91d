import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The catalogue's usage line, written out: the tests hold the command's contract, not its own constant. */
const USAGE = "usage: npm run catalogue [-- --reference <dir>] | [-- --live --region <region>]";

const ROOT = path.resolve(__dirname, "../..");

/** The script as npm runs it: its own process, so a loading mistake (an un-awaited import) shows. */
function catalogue(
  args: string[],
  env: NodeJS.ProcessEnv = { ...process.env, INIT_CWD: ROOT, npm_package_json: path.join(ROOT, "package.json") },
): { status: number | null; stdout: string; stderr: string } {
  const { status, stdout, stderr } = spawnSync(process.execPath, [path.join(ROOT, "scripts/build-instance-catalogue.js"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env,
  });
  return { status, stdout, stderr };
}

const refused = (...problems: string[]) => ({ status: 2, stdout: "", stderr: `${problems.map((p) => `  - ${p}\n`).join("")}${USAGE}\n` });

describe("npm run catalogue", () => {
  it("runs the script: a bad flag is reported with the usage, exit 2, no stack trace", () => {
    expect(catalogue(["--bogus"])).toEqual(refused("--bogus: unknown argument"));
  });

  it("prints the help on stdout and exits 0", () => {
    const { status, stdout, stderr } = catalogue(["--help"]);
    const flags = stdout
      .split("\n")
      .filter((line) => line.startsWith("  --"))
      .map((line) => line.trim().split(/\s{2,}/)[0]);
    expect({ status, stderr, first: stdout.split("\n")[0], flags }).toEqual({
      status: 0,
      stderr: "",
      first: USAGE,
      flags: ["--reference <dir>", "--live", "--region <region>", "--help"],
    });
  });

  it("refuses flags that would be ignored or contradict each other, every one at once", () => {
    expect(catalogue(["--region", "eu-west-1"])).toEqual(
      refused('--region: got "eu-west-1"; only with --live (the reference build is Karpenter\'s us-east-1 data): add --live, or leave --region out'),
    );
    expect(catalogue(["--live=false", "--live", "--live", "--region", "zz-east-1", "--reference", "x"])).toEqual(
      refused(
        '--live: takes no value (got "--live=false")',
        "--live: given twice",
        '--reference: got "x"; not with --live, which reads the AWS APIs instead',
        '--region: got "zz-east-1"; must be an AWS region where EKS and Fargate run, such as us-east-1 or eu-west-1 (docs/configuration.md lists them)',
      ),
    );
    expect(catalogue(["--live", "--reference"])).toEqual(refused("--reference: missing value", "--live: needs --region <region>"));
  });

  it("names a missing reference folder, read from the folder npm was run in, with exit 2", () => {
    const here = fs.mkdtempSync(path.join(os.tmpdir(), "catalogue-cwd-"));
    expect(catalogue(["--reference", "nope"], { ...process.env, INIT_CWD: here, npm_package_json: path.join(ROOT, "package.json") })).toEqual({
      status: 2,
      stdout: "",
      stderr: `--reference: 1 problem\n  - cannot read ${path.join(here, "nope", "karpenter", "instance-types-v1.14.1.md")} (no such file or folder); --reference must name the folder holding karpenter/ and aws/\n`,
    });
  });

  it("without AWS credentials, --live says what to do instead in the catalogue's terms, exit 1", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "catalogue-home-"));
    // No credentials anywhere, and no instance metadata service to ask.
    const isolated = {
      PATH: process.env.PATH,
      HOME: home,
      AWS_CONFIG_FILE: path.join(home, "none"),
      AWS_SHARED_CREDENTIALS_FILE: path.join(home, "none"),
      AWS_EC2_METADATA_DISABLED: "true",
    };
    expect(catalogue(["--live", "--region", "eu-west-1"], isolated)).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "--live needs AWS credentials and found none (environment, shared config and SSO were tried): set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or rebuild the catalogue from Karpenter's reference without --live (npm run catalogue)\n",
    });
  });
});
