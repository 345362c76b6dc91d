import * as fs from "node:fs";
import * as path from "node:path";
import { InputError, InputErrors } from "../shared/input-error";
import type { ClusterConfig } from "./cluster-schema";
import { CLUSTER_CONFIG_ENV, loadClusterConfig, readClusterConfigFile } from "./load-config";

/** A cluster of this synth and the file it came from. */
export interface LoadedCluster {
  readonly source: string;
  readonly config: ClusterConfig;
}

/** The files of a fleet folder: one cluster each. Other files (a README) and subfolders are not clusters. */
const CLUSTER_FILE = /^[^.].*\.(ya?ml|json)$/;

/** The cluster files of a folder, in name order (the order their stacks are synthesized and listed). */
export function clusterFiles(folder: string): string[] {
  return fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && CLUSTER_FILE.test(entry.name))
    .map((entry) => path.join(folder, entry.name))
    .sort();
}

/**
 * The clusters of this synth: the embedded default, the file CLUSTER_CONFIG names, or every cluster file of
 * the folder it names (a fleet: dev, staging, prod, ...). Every problem of every file is reported at once,
 * each with its file; a fleet's cluster names must differ, since stack and workspace names derive from them.
 */
export function loadClusters(env: NodeJS.ProcessEnv = process.env): LoadedCluster[] {
  const named = env[CLUSTER_CONFIG_ENV];
  if (!named || !isFolder(named)) return [{ source: named || "embedded default cluster", config: loadClusterConfig(env) }];

  const files = clusterFiles(named);
  if (files.length === 0) {
    throw new InputError(named, [
      `is a folder with no cluster file; ${CLUSTER_CONFIG_ENV} must name a YAML or JSON file, or a folder of *.yaml, *.yml or *.json files`,
    ]);
  }
  const errors: InputError[] = [];
  const clusters: LoadedCluster[] = [];
  for (const file of files) {
    try {
      clusters.push({ source: file, config: readClusterConfigFile(file) });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      errors.push(error);
    }
  }
  const firstByName = new Map<string, string>();
  for (const { source, config } of clusters) {
    const first = firstByName.get(config.name);
    if (first === undefined) firstByName.set(config.name, source);
    else {
      errors.push(
        new InputError(source, [
          `name: got ${JSON.stringify(config.name)}; is also the name of the cluster in ${first}: each cluster of a fleet needs its own name (its stacks and workspaces are named after it)`,
        ]),
      );
    }
  }
  if (errors.length > 0) throw new InputErrors(errors);
  return clusters;
}

/** Whether CLUSTER_CONFIG names a folder (a fleet) rather than one file. */
export function isFolder(named: string): boolean {
  try {
    return fs.statSync(named).isDirectory();
  } catch {
    // Missing or unreadable: reading it as a file reports why.
    return false;
  }
}
