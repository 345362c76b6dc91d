import { isAbsolute, resolve } from "node:path";
import { formatIssues } from "../shared/format-issues";
import { InputError } from "../shared/input-error";
import { userFolder } from "../shared/user-folder";
import { type ClusterConfig, clusterConfigSchema } from "./cluster-schema";
import { CLUSTER_CONFIG_ENV, readConfigDocument } from "./config-file";
import { DEFAULT_CLUSTER } from "./default-cluster";

export { CLUSTER_CONFIG_ENV } from "./config-file";

/** Validates a parsed document; `source` names it in errors. Throws InputError with every problem. */
export function parseClusterConfig(document: unknown, source: string): ClusterConfig {
  const result = clusterConfigSchema.safeParse(document ?? {}, { reportInput: true });
  if (!result.success) throw new InputError(source, formatIssues(result.error.issues));
  return result.data;
}

/** Reads and validates one cluster file (YAML or JSON); see readConfigDocument for what is refused before validation. */
export function readClusterConfigFile(path: string): ClusterConfig {
  return parseClusterConfig(readConfigDocument(path), path);
}

/**
 * CLUSTER_CONFIG as the user meant it: `cd clusters && CLUSTER_CONFIG=prod.yaml npm run synth` names
 * clusters/prod.yaml, although npm runs the script from the package root (see userFolder).
 */
export function clusterConfigPath(env: NodeJS.ProcessEnv): string | undefined {
  const named = env[CLUSTER_CONFIG_ENV];
  if (!named) return undefined;
  const folder = userFolder(env);
  return isAbsolute(named) || folder === process.cwd() ? named : resolve(folder, named);
}

/** The configuration for this synth: the file named by CLUSTER_CONFIG, or the embedded default. */
export function loadClusterConfig(env: NodeJS.ProcessEnv = process.env): ClusterConfig {
  const path = clusterConfigPath(env);
  return path ? readClusterConfigFile(path) : parseClusterConfig(DEFAULT_CLUSTER, "embedded default cluster");
}
