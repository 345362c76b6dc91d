import * as fs from "node:fs";
import * as path from "node:path";
import { InputError } from "../shared/input-error";

// Synth writes into a staging folder inside the output folder, and only a synth that finished moves it in
// place of the previous output: an error, a Ctrl-C or a crash leaves the previous output whole, and a
// pipeline that applies every folder of stacks/ never picks up half a fleet.
//
// The move is three renames on one file system, in an order that keeps the output consistent at every
// instant: manifest.json leaves first, the stacks/ folders swap, the new manifest.json arrives last. A reader
// in between finds no manifest (and cdktf says so), never a manifest listing folders that are not there.
// The staging folder sits inside the output folder, not beside it, so that the output folder's parent need
// not be writable, a mount point still works, and whatever else the folder holds is left alone.

const STAGING_PREFIX = ".staging-";
const PREVIOUS_PREFIX = ".previous-";
const MANIFEST = "manifest.json";
const STACKS = "stacks";

/** What cdktf writes at the top of the output folder; manifest.json goes last. */
function synthEntries(folder: string): string[] {
  return fs
    .readdirSync(folder)
    .filter((entry) => entry !== MANIFEST)
    .sort()
    .concat(fs.existsSync(path.join(folder, MANIFEST)) ? [MANIFEST] : []);
}

/**
 * Files in a previous stack folder that synth does not write, such as `.terraform/` and
 * `.terraform.lock.hcl` from `cdktf deploy` or `terraform init`: they move into the new stack folder, so
 * that a synth does not cost the next plan its init. Folders of stacks no longer configured are dropped, as
 * the cdktf CLI drops them.
 */
function carryOverWorkingFiles(previousStacks: string, stagedStacks: string): void {
  if (!fs.existsSync(previousStacks) || !fs.existsSync(stagedStacks)) return;
  for (const stack of fs.readdirSync(stagedStacks)) {
    const from = path.join(previousStacks, stack);
    if (!fs.statSync(from, { throwIfNoEntry: false })?.isDirectory()) continue;
    const to = path.join(stagedStacks, stack);
    for (const entry of fs.readdirSync(from)) {
      if (!fs.existsSync(path.join(to, entry))) fs.renameSync(path.join(from, entry), path.join(to, entry));
    }
  }
}

/**
 * What synth moves or reads through that is a symbolic link: the staging and previous-output folders, manifest.json,
 * stacks/ and each stack folder. Synth follows none of them: a link planted there would have it move the files of
 * wherever it points.
 */
function symbolicLinks(outdir: string): string[] {
  const isLink = (entry: string) => fs.lstatSync(entry, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  const top = fs
    .readdirSync(outdir)
    .filter((entry) => entry.startsWith(PREVIOUS_PREFIX) || entry.startsWith(STAGING_PREFIX) || entry === MANIFEST || entry === STACKS)
    .map((entry) => path.join(outdir, entry));
  const stacks = path.join(outdir, STACKS);
  const stackFolders = fs.lstatSync(stacks, { throwIfNoEntry: false })?.isDirectory() ? fs.readdirSync(stacks).map((entry) => path.join(stacks, entry)) : [];
  return [...top, ...stackFolders].filter(isLink);
}

/**
 * Leftovers of a synth that was killed (SIGKILL, power loss): its staging folder is dropped, and if it was
 * killed half way through the move, the previous output is put back first. Call it holding the output lock.
 * Refuses an output folder where synth would follow a symbolic link (InputError), before touching anything.
 */
export function recoverInterruptedOutput(outdir: string): void {
  const links = symbolicLinks(outdir);
  if (links.length > 0) {
    throw new InputError(
      outdir,
      links.map((link) => `${link} is a symbolic link; synth writes, moves and removes only what it created there, never through a link: remove the link`),
    );
  }
  for (const entry of fs.readdirSync(outdir)) {
    const folder = path.join(outdir, entry);
    if (entry.startsWith(PREVIOUS_PREFIX)) {
      for (const moved of fs.readdirSync(folder)) {
        if (!fs.existsSync(path.join(outdir, moved))) fs.renameSync(path.join(folder, moved), path.join(outdir, moved));
      }
    }
    if (entry.startsWith(PREVIOUS_PREFIX) || entry.startsWith(STAGING_PREFIX)) fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** A staging folder for one synth. */
export class StagedOutput {
  readonly folder: string;
  private done = false;

  constructor(private readonly outdir: string) {
    this.folder = path.join(outdir, `${STAGING_PREFIX}${process.pid}`);
    fs.rmSync(this.folder, { recursive: true, force: true });
    fs.mkdirSync(this.folder);
  }

  /** Puts the staged output in place of the previous one. */
  commit(): void {
    const previous = path.join(this.outdir, `${PREVIOUS_PREFIX}${process.pid}`);
    fs.mkdirSync(previous, { recursive: true });
    carryOverWorkingFiles(path.join(this.outdir, STACKS), path.join(this.folder, STACKS));
    // The old manifest leaves first, so no instant has a manifest naming folders that are not there.
    const entries = synthEntries(this.folder);
    for (const entry of [MANIFEST, ...entries.filter((e) => e !== MANIFEST)]) {
      const current = path.join(this.outdir, entry);
      if (fs.existsSync(current)) fs.renameSync(current, path.join(previous, entry));
    }
    for (const entry of entries) fs.renameSync(path.join(this.folder, entry), path.join(this.outdir, entry));
    this.done = true;
    fs.rmSync(previous, { recursive: true, force: true });
    fs.rmSync(this.folder, { recursive: true, force: true });
  }

  /** Drops the staged output; the previous output stays as it was. Safe to call more than once. */
  abandon(): void {
    if (this.done) return;
    this.done = true;
    fs.rmSync(this.folder, { recursive: true, force: true });
  }
}
