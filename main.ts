import { configWarnings } from "./src/config/config-warnings";
import { loadClusters } from "./src/config/load-clusters";
import { InputError, InputErrors } from "./src/shared/input-error";
import { AppValidationError, buildStacks, createApp, synthesizeApp } from "./src/stacks/autonomous-eks-app";
import { prepareOutputDirectory } from "./src/stacks/output-directory";

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

const clusters = loadClustersOrExit();
// On stderr, once per synth and cluster: stdout is for what was written.
for (const { config } of clusters) {
  for (const warning of configWarnings(config)) console.error(clusters.length > 1 ? `Warning (${config.name}): ${warning}` : `Warning: ${warning}`);
}
try {
  prepareOutputDirectory();
} catch (error) {
  if (!(error instanceof InputError)) throw error;
  console.error(`Cannot write the synthesized stacks: ${error.message}`);
  process.exit(1);
}
const app = createApp();
for (const { config } of clusters) buildStacks(app, config);
try {
  synthesizeApp(app);
} catch (error) {
  if (!(error instanceof AppValidationError)) throw error;
  console.error(`Cannot synthesize: ${error.problems.length} problem${error.problems.length === 1 ? "" : "s"}; nothing was written`);
  for (const problem of error.problems) console.error(`  - ${problem}`);
  process.exit(1);
}
