// The bench ends cleanly however it ends: its scratch folders (/tmp/aeks-bench-*) are removed at exit, and on
// Ctrl-C or a kill (SIGINT, SIGTERM, SIGHUP) the measured command is stopped and the folders removed before
// the bench ends by the same signal, so that the shell or CI sees how it ended. Node runs a signal handler
// only when its event loop is free, so commands run asynchronously (spawn, not spawnSync): a signal
// handled after minutes of synchronous runs would come too late.

const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
const folders = new Set();
const children = new Set();

function removeFolders() {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  folders.clear();
}

function endBySignal(signal) {
  // Each command runs in its own process group (detached): the group holds the shell and the node it starts.
  for (const child of children) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
  removeFolders();
  for (const s of SIGNALS) process.removeAllListeners(s);
  process.kill(process.pid, signal);
}

process.on("exit", removeFolders);
for (const signal of SIGNALS) process.on(signal, () => endBySignal(signal));

/** A new folder under the system's temporary folder, removed when the bench ends (or earlier by `remove`). */
function tempFolder(prefix) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  folders.add(folder);
  return folder;
}

function remove(folder) {
  fs.rmSync(folder, { recursive: true, force: true });
  folders.delete(folder);
}

/**
 * Runs a command (spawn's arguments) to its end: { status, stderr, wallMs } from spawn to exit. A command
 * ended by a signal (Ctrl-C reaches it too) ends the bench by that signal.
 */
function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { ...options, detached: true });
    children.add(child);
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (status, signal) => {
      children.delete(child);
      if (signal !== null) endBySignal(signal);
      else resolve({ status, stderr, wallMs: Number(process.hrtime.bigint() - started) / 1e6 });
    });
  });
}

module.exports = { remove, run, tempFolder };
