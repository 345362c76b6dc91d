import { App } from "cdktf";
import { ConfigError } from "./src/config/config-error";
import { configWarnings } from "./src/config/config-warnings";
import { loadClusterConfig } from "./src/config/load-config";
import { buildStacks } from "./src/stacks/autonomous-eks-app";

// Configuration errors are the user's to fix: print them all, exit non-zero, write nothing.
function loadConfigOrExit() {
  try {
    return loadClusterConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Invalid cluster configuration: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

const config = loadConfigOrExit();
// On stderr, once per synth: stdout is for what was written.
for (const warning of configWarnings(config)) console.error(`Warning: ${warning}`);
const app = new App();
buildStacks(app, config);
app.synth();
