import { spawnSync } from "node:child_process";

/** Whether a kubectl runs here (this machine's comes from the Google Cloud CLI's packages). */
export function kubectlAvailable(): boolean {
  const run = spawnSync("kubectl", ["version", "--client", "-o", "json"], { encoding: "utf8" });
  return run.status === 0;
}

/**
 * `describe` when kubectl is on PATH; otherwise `describe.skip`, said loudly: these tests prove the report reads a
 * cluster through the user's own kubectl.
 */
export function describeWithKubectl(name: string, body: () => void): void {
  if (kubectlAvailable()) {
    describe(name, body);
    return;
  }
  console.warn(`\n*** SKIPPED: no kubectl on PATH; "${name}" did NOT run ***\n`);
  describe.skip(name, body);
}
