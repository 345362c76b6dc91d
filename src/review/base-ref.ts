import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

// The base of a review: a git ref of this repository, checked out in a temporary worktree (so the working tree
// is never touched) and synthesized, and planned, by its own code, as it was at that commit.

export interface BaseCommit {
  readonly ref: string;
  readonly sha: string;
}

function git(root: string, args: readonly string[]) {
  return spawnSync("git", ["-C", root, ...args], { encoding: "utf8" });
}

/** The commit a ref names, or why there is none (no such ref, or no git repository). */
export function resolveBaseRef(root: string, ref: string): BaseCommit | { readonly problem: string } {
  const found = git(root, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  if (found.status === 0) return { ref, sha: found.stdout.trim() };
  const inRepository = git(root, ["rev-parse", "--git-dir"]).status === 0;
  return {
    problem: inRepository
      ? `got ${JSON.stringify(ref)}; no such commit, branch or tag in this repository (in CI, fetch the base first: git fetch origin <branch>)`
      : `got ${JSON.stringify(ref)}; ${root} is not a git repository, so there is no base to compare with`,
  };
}

/**
 * Runs `work` in a detached worktree of the commit, with the working tree's node_modules and generated
 * bindings linked in (a base commit has no install of its own), and removes the worktree afterwards.
 */
export function inBaseWorktree<T>(root: string, base: BaseCommit, work: (folder: string) => T): T {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "aeks-review-base-"));
  const folder = path.join(parent, "base");
  const added = git(root, ["worktree", "add", "--detach", "--quiet", folder, base.sha]);
  if (added.status !== 0) {
    fs.rmSync(parent, { recursive: true, force: true });
    throw new Error(`git worktree add failed: ${added.stderr.trim()}`);
  }
  try {
    for (const shared of ["node_modules", ".gen"]) {
      if (fs.existsSync(path.join(root, shared)) && !fs.existsSync(path.join(folder, shared))) {
        fs.symlinkSync(path.join(root, shared), path.join(folder, shared), "dir");
      }
    }
    return work(folder);
  } finally {
    git(root, ["worktree", "remove", "--force", folder]);
    fs.rmSync(parent, { recursive: true, force: true });
    git(root, ["worktree", "prune"]);
  }
}

/** Whether the base's lock file differs from the working tree's: the base then ran with other packages than its own. */
export function dependenciesDiffer(root: string, baseFolder: string): boolean {
  const read = (folder: string) => fs.readFileSync(path.join(folder, "package-lock.json"), "utf8");
  return fs.existsSync(path.join(baseFolder, "package-lock.json")) && read(root) !== read(baseFolder);
}

/**
 * CLUSTER_CONFIG for the base: a path inside the repository names the same path in the base's worktree (the
 * config as it was); one outside it names the same file for both. Undefined for the embedded default.
 */
export function baseConfigPath(root: string, baseFolder: string, headConfigPath: string | undefined): string | undefined {
  if (headConfigPath === undefined) return undefined;
  const absolute = path.resolve(headConfigPath);
  const relative = path.relative(root, absolute);
  return relative.startsWith("..") || path.isAbsolute(relative) ? absolute : path.join(baseFolder, relative);
}

export interface BaseRun {
  readonly ok: boolean;
  readonly stdout: string;
  /** What the command printed on stderr (its warnings, or why it failed). */
  readonly stderr: string;
}

/** Runs one of the base's npm scripts (scripts/<name>.js) in its worktree with node, CLUSTER_CONFIG given explicitly. */
export function runInBase(baseFolder: string, script: string, args: readonly string[], env: Record<string, string | undefined>): BaseRun {
  const result = spawnSync(process.execPath, [path.join("scripts", script), ...args], {
    cwd: baseFolder,
    // INIT_CWD: where npm would have been run, so that a relative CLUSTER_CONFIG resolves in the worktree.
    env: { ...process.env, ...env, INIT_CWD: baseFolder },
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  return { ok: result.status === 0, stdout: result.stdout, stderr: result.stderr };
}
