import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

// One synth at a time per output folder: two at once would each move their output in, and the second's
// move could land between the first's. The lock is a file created exclusively (O_EXCL), holding the owner's
// host and pid: a lock whose owner on this host is gone (killed) is taken over; one held by a running synth
// is waited for, with one line on stderr, up to a limit.

const LOCK_FILE = ".synth.lock";

interface Owner {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

export interface LockOptions {
  /** How long to wait for another synth before giving up. */
  readonly waitMs?: number;
  /** Told once when this synth starts waiting. */
  readonly onWait?: (message: string) => void;
}

const DEFAULT_WAIT_MS = 120_000;
const POLL_MS = 100;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function readOwner(file: string): Owner | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Owner;
  } catch {
    // Gone since, or caught between its creation and its first write.
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user holds the pid.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Creates the lock file if nobody holds it; true when this process now does. */
function tryCreate(file: string): boolean {
  try {
    const fd = fs.openSync(file, "wx");
    fs.writeSync(fd, JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString() } satisfies Owner));
    fs.closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** Another synth holds the output folder for longer than this one would wait. */
export class OutputBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OutputBusyError";
  }
}

/**
 * Takes the output folder's lock, waiting for another synth to finish; returns the function that releases it.
 * Throws an OutputBusyError when the wait runs out.
 */
export function lockOutput(outdir: string, options: LockOptions = {}): () => void {
  const file = path.join(outdir, LOCK_FILE);
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
  let told = false;
  for (;;) {
    if (tryCreate(file)) break;
    const owner = readOwner(file);
    if (owner !== undefined && owner.host === os.hostname() && !isRunning(owner.pid)) {
      // Its synth was killed: the lock is stale. Remove it only if it is still that owner's.
      if (readOwner(file)?.pid === owner.pid) fs.rmSync(file, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      const who = owner === undefined ? "another synth" : `another synth (pid ${owner.pid} on ${owner.host}, since ${owner.since})`;
      throw new OutputBusyError(
        `${outdir} is still being written by ${who} after ${Math.round((options.waitMs ?? DEFAULT_WAIT_MS) / 1000)} s; run one synth at a time per folder (or give each its own CDKTF_OUTDIR); if none is running, delete ${file}`,
      );
    }
    if (!told) {
      options.onWait?.(`Waiting for another synth${owner ? ` (pid ${owner.pid})` : ""} to finish writing ${outdir}`);
      told = true;
    }
    sleep(POLL_MS);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (readOwner(file)?.pid === process.pid) fs.rmSync(file, { force: true });
  };
}
