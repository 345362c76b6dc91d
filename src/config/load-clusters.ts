import * as fs from "node:fs";
import * as path from "node:path";
import { InputError, InputErrors } from "../shared/input-error";
import { readFailure } from "../shared/untrusted-file";
import type { ClusterConfig } from "./cluster-schema";
import { CLUSTER_CONFIG_ENV, clusterConfigPath, loadClusterConfig, readClusterConfigFile } from "./load-config";

/** A cluster of this synth and the file it came from. */
export interface LoadedCluster {
  readonly source: string;
  readonly config: ClusterConfig;
}

/** The files of a fleet folder: one cluster each. Other files (a README) and subfolders are not clusters. */
const CLUSTER_FILE = /^[^.].*\.(ya?ml|json)$/i;

/** Whether a folder entry is a file, following a symbolic link (a fleet may link a shared file in). */
function isFile(folder: string, entry: fs.Dirent): boolean {
  if (entry.isFile()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return fs.statSync(path.join(folder, entry.name)).isFile();
  } catch {
    // A dangling link is read as a file, so that its problem is reported rather than the file skipped.
    return true;
  }
}

/** The cluster files of a folder, in name order (the order their stacks are synthesized and listed). */
export function clusterFiles(folder: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    const reason = readFailure(error);
    if (reason === undefined) throw error;
    throw new InputError(folder, [`cannot list the fleet folder (${reason}); ${CLUSTER_CONFIG_ENV} must name a readable folder or file`]);
  }
  return entries
    .filter((entry) => CLUSTER_FILE.test(entry.name) && isFile(folder, entry))
    .map((entry) => path.join(folder, entry.name))
    .sort();
}

/**
 * The clusters of this synth: the embedded default, the file CLUSTER_CONFIG names, or every cluster file of
 * the folder it names (a fleet: dev, staging, prod, ...). Every problem of every file is reported at once,
 * each with its file; a fleet's cluster names must differ, since stack and workspace names derive from them.
 */
export function loadClusters(env: NodeJS.ProcessEnv = process.env): LoadedCluster[] {
  const named = clusterConfigPath(env);
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
  // Names that differ only in case collide too: IAM role names are unique regardless of case, and so are
  // stack folders on macOS and Windows.
  const firstByName = new Map<string, { source: string; name: string }>();
  for (const { source, config } of clusters) {
    const first = firstByName.get(config.name.toLowerCase());
    if (first === undefined) firstByName.set(config.name.toLowerCase(), { source, name: config.name });
    else {
      const same = first.name === config.name ? "is also the name" : `differs only in case from ${JSON.stringify(first.name)}, the name`;
      errors.push(
        new InputError(source, [
          `name: got ${JSON.stringify(config.name)}; ${same} of the cluster in ${first.source}: each cluster of a fleet needs its own name (its stacks and workspaces are named after it, and IAM ignores case)`,
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
