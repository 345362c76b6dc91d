import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { InputError } from "../../src/shared/input-error";
import { lockOutput, OutputBusyError } from "../../src/stacks/output-lock";
import { recoverInterruptedOutput, StagedOutput } from "../../src/stacks/staged-output";
import { testFolder } from "../helpers/test-folder";

const ROOT = path.join(__dirname, "..", "..");

/** An output folder as a synth leaves it: a manifest listing each stack, and the stack folders. */
function writeOutput(folder: string, stacks: readonly string[], content = "{}"): void {
  fs.mkdirSync(folder, { recursive: true });
  for (const stack of stacks) {
    fs.mkdirSync(path.join(folder, "stacks", stack), { recursive: true });
    fs.writeFileSync(path.join(folder, "stacks", stack, "cdk.tf.json"), content);
  }
  const listed = Object.fromEntries(stacks.map((s) => [s, { synthesizedStackPath: `stacks/${s}/cdk.tf.json` }]));
  fs.writeFileSync(path.join(folder, "manifest.json"), JSON.stringify({ stacks: listed }));
}

const listing = (folder: string) => fs.readdirSync(folder, { recursive: true }).map(String).sort();

describe("a staged output", () => {
  it("replaces the previous output as a whole: stacks no longer configured go, Terraform's working files stay", () => {
    const outdir = testFolder("staged");
    writeOutput(outdir, ["a-cluster", "gone-cluster"], "old");
    fs.mkdirSync(path.join(outdir, "stacks", "a-cluster", ".terraform", "providers"), { recursive: true });
    fs.writeFileSync(path.join(outdir, "stacks", "a-cluster", ".terraform.lock.hcl"), "lock");
    fs.writeFileSync(path.join(outdir, "notes.txt"), "the user's");

    const staged = new StagedOutput(outdir);
    writeOutput(staged.folder, ["a-cluster", "b-cluster"], "new");
    staged.commit();

    expect(listing(outdir)).toEqual([
      "manifest.json",
      "notes.txt",
      "stacks",
      "stacks/a-cluster",
      "stacks/a-cluster/.terraform",
      "stacks/a-cluster/.terraform.lock.hcl",
      "stacks/a-cluster/.terraform/providers",
      "stacks/a-cluster/cdk.tf.json",
      "stacks/b-cluster",
      "stacks/b-cluster/cdk.tf.json",
    ]);
    expect(fs.readFileSync(path.join(outdir, "stacks", "a-cluster", "cdk.tf.json"), "utf8")).toBe("new");
  });

  it("leaves the previous output untouched when abandoned", () => {
    const outdir = testFolder("abandoned");
    writeOutput(outdir, ["a-cluster"], "old");
    const before = listing(outdir);
    const staged = new StagedOutput(outdir);
    writeOutput(staged.folder, ["b-cluster"], "new");
    staged.abandon();
    expect(listing(outdir)).toEqual(before);
  });

  it("puts the previous output back when a synth was killed half way through the move", () => {
    const outdir = testFolder("interrupted");
    // Killed after the old manifest and stacks left and before the new ones arrived.
    writeOutput(path.join(outdir, ".previous-4242"), ["a-cluster"], "old");
    writeOutput(path.join(outdir, ".staging-4242"), ["b-cluster"], "new");
    recoverInterruptedOutput(outdir);
    expect(listing(outdir)).toEqual(["manifest.json", "stacks", "stacks/a-cluster", "stacks/a-cluster/cdk.tf.json"]);
  });

  it("refuses a symbolic link where synth moves files, and moves nothing through it", () => {
    const victim = testFolder("victim");
    fs.writeFileSync(path.join(victim, "important"), "theirs");
    const outdir = testFolder("planted");
    writeOutput(outdir, ["a-cluster"], "old");
    fs.symlinkSync(victim, path.join(outdir, ".previous-4242"));
    fs.symlinkSync(victim, path.join(outdir, "stacks", "b-cluster"));
    const before = listing(outdir);
    let problems: readonly string[] = [];
    try {
      recoverInterruptedOutput(outdir);
    } catch (error) {
      problems = (error as InputError).problems;
    }
    const why = "is a symbolic link; synth writes, moves and removes only what it created there, never through a link: remove the link";
    expect(problems).toEqual([`${path.join(outdir, ".previous-4242")} ${why}`, `${path.join(outdir, "stacks", "b-cluster")} ${why}`]);
    expect(fs.readdirSync(victim)).toEqual(["important"]);
    expect(listing(outdir)).toEqual(before);
  });
});

describe("the output folder's lock", () => {
  it("makes a second synth wait for the first, and refuses in one line when the wait runs out", () => {
    const outdir = testFolder("locked");
    const release = lockOutput(outdir);
    const waited: string[] = [];
    let error: unknown;
    try {
      lockOutput(outdir, { waitMs: 300, onWait: (m) => waited.push(m) });
    } catch (e) {
      error = e;
    }
    expect(waited).toEqual([`Waiting for another synth (pid ${process.pid}) to finish writing ${outdir}`]);
    expect(error).toBeInstanceOf(OutputBusyError);
    expect((error as Error).message).toMatch(
      new RegExp(`^${outdir} is still being written by another synth \\(pid ${process.pid} on .+\\) after 0 s; run one synth at a time per folder`),
    );
    expect((error as Error).message).not.toContain("\n");
    release();
    lockOutput(outdir)();
  });

  it("takes over the lock of a synth that was killed", () => {
    const outdir = testFolder("stale-lock");
    // A process that has exited: its pid is free.
    const { pid } = spawnSync(process.execPath, ["-e", ""]);
    fs.writeFileSync(path.join(outdir, ".synth.lock"), JSON.stringify({ pid, host: os.hostname(), since: "2026-01-01T00:00:00Z" }));
    const release = lockOutput(outdir, { waitMs: 0 });
    release();
    expect(fs.readdirSync(outdir)).toEqual([]);
  });
});

describe("synths of real configs into one folder", () => {
  const synth = (outdir: string, config: string): ChildProcess =>
    spawn(process.execPath, ["scripts/synth.js"], { cwd: ROOT, env: { ...process.env, CDKTF_OUTDIR: outdir, CLUSTER_CONFIG: config }, stdio: "pipe" });
  const finished = (child: ChildProcess) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      let stderr = "";
      child.stderr?.on("data", (chunk) => {
        stderr += chunk;
      });
      child.on("close", (code) => resolve({ code, stderr }));
    });

  /**
   * Whether the folder is consistent: the manifest (if there is one) lists exactly the stack folders there.
   * A reading is kept only if the manifest did not change while it was taken (the same file before and after).
   */
  function consistentReading(outdir: string): boolean | undefined {
    const manifestFile = path.join(outdir, "manifest.json");
    const before = fs.statSync(manifestFile, { throwIfNoEntry: false });
    if (before === undefined) return undefined;
    let listed: string[];
    try {
      listed = Object.keys(JSON.parse(fs.readFileSync(manifestFile, "utf8")).stacks).sort();
    } catch {
      // Moved away between the stat and the read.
      return undefined;
    }
    // No stacks folder at all, with a manifest that lists stacks, is inconsistent too.
    let present: string[] = [];
    try {
      present = fs.readdirSync(path.join(outdir, "stacks")).sort();
    } catch {}
    const after = fs.statSync(manifestFile, { throwIfNoEntry: false });
    if (after?.ino !== before.ino) return undefined;
    return JSON.stringify(listed) === JSON.stringify(present);
  }

  it("run at once, leave one config's whole output, never a mix, and a reader never sees a manifest naming missing folders", async () => {
    const outdir = testFolder("race");
    const readings: boolean[] = [];
    const poll = setInterval(() => {
      const reading = consistentReading(outdir);
      if (reading !== undefined) readings.push(reading);
    }, 2);
    // The test holds the folder until both synths are waiting for it, so that they do run at once whatever
    // the machine's load; then they race each other for it.
    const release = lockOutput(outdir);
    const children = [synth(outdir, "clusters"), synth(outdir, "templates/examples/multi-pool.yaml")];
    const stderr = children.map(() => "");
    children.forEach((child, i) => {
      child.stderr?.on("data", (chunk) => {
        stderr[i] += chunk;
      });
    });
    const done = Promise.all(children.map(finished));
    await new Promise<void>((resolve) => {
      const wait = setInterval(() => {
        if (stderr.every((text) => text.includes("Waiting for another synth"))) {
          clearInterval(wait);
          resolve();
        }
      }, 5);
    });
    release();
    const results = await done;
    clearInterval(poll);
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    // Each said it was waiting, once, in one line.
    expect(stderr.map((text) => text.split("\n").filter((line) => line.startsWith("Waiting for another synth")).length)).toEqual([1, 1]);
    expect(readings.length).toBeGreaterThan(0);
    expect(readings.every(Boolean)).toBe(true);
    const stacks = fs.readdirSync(path.join(outdir, "stacks")).sort();
    expect([
      ["dev-cluster", "dev-karpenter", "multiarch-cluster", "multiarch-karpenter", "prod-cluster", "prod-karpenter", "staging-cluster", "staging-karpenter"],
      ["multi-pool-cluster", "multi-pool-karpenter"],
    ]).toContainEqual(stacks);
    expect(fs.readdirSync(outdir).sort()).toEqual(["manifest.json", "stacks"]);
  }, 60_000);

  it("killed mid-synth, leave the previous output whole, and the next synth cleans up after it", async () => {
    const outdir = testFolder("killed");
    expect((await finished(synth(outdir, "templates/examples/multi-pool.yaml"))).code).toBe(0);
    const before = listing(outdir).map((f) => [f, fs.statSync(path.join(outdir, f)).isFile() ? fs.readFileSync(path.join(outdir, f), "utf8") : ""]);
    const child = synth(outdir, "clusters");
    // Once it holds the lock it is writing its staging folder: kill it there.
    await new Promise<void>((resolve) => {
      const wait = setInterval(() => {
        if (fs.readdirSync(outdir).some((e) => e.startsWith(".staging-"))) {
          clearInterval(wait);
          resolve();
        }
      }, 5);
    });
    child.kill("SIGKILL");
    await finished(child);
    const after = listing(outdir).filter((f) => !f.startsWith(".staging-") && f !== ".synth.lock");
    expect(after.map((f) => [f, fs.statSync(path.join(outdir, f)).isFile() ? fs.readFileSync(path.join(outdir, f), "utf8") : ""])).toEqual(before);
    expect((await finished(synth(outdir, "clusters"))).code).toBe(0);
    expect(fs.readdirSync(outdir).sort()).toEqual(["manifest.json", "stacks"]);
  }, 60_000);
});
