import * as fs from "node:fs";
import { LineCounter, parseDocument } from "yaml";
import { formatIssues } from "../shared/format-issues";
import { type ClusterConfig, clusterConfigSchema } from "./cluster-schema";
import { ConfigError } from "./config-error";
import { DEFAULT_CLUSTER } from "./default-cluster";

/** The environment variable naming the cluster file; without it the embedded default cluster is used. */
export const CLUSTER_CONFIG_ENV = "CLUSTER_CONFIG";

/** Validates a parsed document; `source` names it in errors. Throws ConfigError with every problem. */
export function parseClusterConfig(document: unknown, source: string): ClusterConfig {
  const result = clusterConfigSchema.safeParse(document ?? {}, { reportInput: true });
  if (!result.success) throw new ConfigError(source, formatIssues(result.error.issues));
  return result.data;
}

/**
 * Reads YAML (JSON is YAML too). Syntax errors, duplicate keys included, are reported with their line
 * and column; nothing is validated until the file parses.
 */
export function readClusterConfigFile(path: string): ClusterConfig {
  let text: string;
  try {
    text = fs.readFileSync(path, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new ConfigError(path, [`cannot read the cluster config (${reason}); ${CLUSTER_CONFIG_ENV} must name a readable YAML or JSON file`]);
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new ConfigError(
      path,
      document.errors.map((e) => {
        const { line, col } = lineCounter.linePos(e.pos[0]);
        return `line ${line}, column ${col}: ${e.message.split("\n")[0]}`;
      }),
    );
  }
  return parseClusterConfig(document.toJS(), path);
}

/** The configuration for this synth: the file named by CLUSTER_CONFIG, or the embedded default. */
export function loadClusterConfig(env: NodeJS.ProcessEnv = process.env): ClusterConfig {
  const path = env[CLUSTER_CONFIG_ENV];
  return path ? readClusterConfigFile(path) : parseClusterConfig(DEFAULT_CLUSTER, "embedded default cluster");
}
