import { configWarnings } from "./src/config/config-warnings";
import { loadClusters } from "./src/config/load-clusters";
import { InputError, InputErrors } from "./src/shared/input-error";
import { AppValidationError, buildStacks, createApp, synthesizeApp } from "./src/stacks/autonomous-eks-app";
import { prepareOutputDirectory } from "./src/stacks/output-directory";
import { lockOutput, OutputBusyError } from "./src/stacks/output-lock";
import { recoverInterruptedOutput, StagedOutput } from "./src/stacks/staged-output";

// Configuration errors are the user's to fix: print them all, each with its file, exit non-zero, write nothing.
function loadClustersOrExit() {
  try {
    return loadClusters();
  } catch (error) {
    const errors = error instanceof InputErrors ? error.errors : error instanceof InputError ? [error] : undefined;
    if (errors === undefined) throw error;
    for (const e of errors) console.error(`Invalid cluster configuration: ${e.message}`);
    process.exit(1);
  }
}

/** The output folder, created, locked for this synth and cleared of an interrupted synth's leftovers. */
function claimOutputDirectoryOrExit(): string {
  try {
    const outdir = prepareOutputDirectory();
    const release = lockOutput(outdir, { onWait: (message) => console.error(message) });
    // Released however the process ends, after anything else that reads the output on exit (npm run synth's summary).
    process.on("exit", release);
    recoverInterruptedOutput(outdir);
    return outdir;
  } catch (error) {
    if (!(error instanceof InputError || error instanceof OutputBusyError)) throw error;
    console.error(`Cannot write the synthesized stacks: ${error.message}`);
    process.exit(1);
  }
}

const clusters = loadClustersOrExit();
// On stderr, once per synth and cluster: stdout is for what was written.
for (const { config } of clusters) {
  for (const warning of configWarnings(config)) console.error(clusters.length > 1 ? `Warning (${config.name}): ${warning}` : `Warning: ${warning}`);
}
const staged = new StagedOutput(claimOutputDirectoryOrExit());
// An error before the commit leaves the previous output as it was. A signal (Ctrl-C) ends the process at
// once, without exit handlers: the next synth clears what it left (recoverInterruptedOutput, a stale lock).
process.on("exit", () => staged.abandon());
const app = createApp({ outdir: staged.folder });
for (const { config } of clusters) buildStacks(app, config);
try {
  synthesizeApp(app);
} catch (error) {
  if (!(error instanceof AppValidationError)) throw error;
  console.error(`Cannot synthesize: ${error.problems.length} problem${error.problems.length === 1 ? "" : "s"}; nothing was written`);
  for (const problem of error.problems) console.error(`  - ${problem}`);
  process.exit(1);
}
staged.commit();
