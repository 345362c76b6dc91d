#!/usr/bin/env node
// npm run savings -- [--kubeconfig <file>] [--context <name>] | --state <file|-> [--format table|markdown|json] [--at <time>] [--live] ...
// What a running cluster costs, where Karpenter's consolidation settles it, and why; see docs/operations.md.

/**
 * While a large cluster is read: one line rewritten in place on a terminal; in a log, a line every 5 seconds at
 * most, so a CI log shows it is moving without a line per page.
 */
function progress(stream) {
  let last = 0;
  let shown = false;
  return {
    update(kind, count) {
      const text = `reading the cluster: ${kind} ${count.toLocaleString("en-US")}`;
      if (stream.isTTY) {
        stream.write(`\r${text}\x1b[K`);
        shown = true;
      } else if (Date.now() - last >= 5000) {
        stream.write(`${text}\n`);
        last = Date.now();
      }
    },
    done() {
      if (shown) stream.write("\r\x1b[K");
    },
  };
}

require("./lib/run-cli").runCli("src/savings/savings-cli.ts", "runSavingsCli", {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
  progress: progress(process.stderr),
  // Settling and the moves take minutes on thousands of nodes: say which is running.
  stage: (text) => process.stderr.write(`${text}...\n`),
});
