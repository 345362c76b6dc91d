import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";

// The repository's own CI workflow, as users copy it. A `${{ ... }}` expression inside a `run:` script is
// pasted into the shell before it runs, so text from a pull request (a branch name) would run as commands:
// such values reach scripts through `env:`.
// @see https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions#understanding-the-risk-of-script-injections

const WORKFLOWS = path.join(__dirname, "..", "..", ".github", "workflows");

interface Step {
  readonly name?: string;
  readonly run?: string;
  readonly env?: Record<string, string>;
}

function steps(file: string): Step[] {
  const workflow = parse(fs.readFileSync(path.join(WORKFLOWS, file), "utf8")) as { jobs: Record<string, { steps: Step[] }> };
  return Object.values(workflow.jobs).flatMap((job) => job.steps);
}

describe("the CI workflows", () => {
  const files = fs.readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));

  it("paste no expression into a shell script", () => {
    expect(files.length).toBeGreaterThan(0);
    const runs = files.flatMap((file) =>
      steps(file)
        .filter((s) => s.run !== undefined)
        .map((s) => ({ file, run: s.run as string })),
    );
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.filter((r) => r.run.includes("${{"))).toEqual([]);
  });

  it("pass the pull request's base branch to the review through the environment", () => {
    const review = steps("ci.yml").find((s) => s.run?.includes("npm run review -- --base"));
    expect(review).toEqual({ run: 'npm run review -- --base "origin/$BASE_REF" --workload templates/demo', env: { BASE_REF: "${{ github.base_ref }}" } });
  });
});
