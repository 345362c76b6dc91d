import { parseClusterConfig } from "../../src/config/load-config";
import { InputError } from "../../src/shared/input-error";

/** The problem lines a config error carries; fails the test when `fn` does not throw one. */
export function problemsOf(fn: () => unknown): readonly string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error("expected a InputError, but the input was accepted");
}

/** The problems the real config parser reports for a cluster named demo with these fields; [] when valid. */
export function clusterProblems(fields: Record<string, unknown>): readonly string[] {
  try {
    parseClusterConfig({ name: "demo", ...fields }, "t.yaml");
    return [];
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
}
