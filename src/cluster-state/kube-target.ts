import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

// Which cluster `kubectl` would talk to, decided before anything talks to it. kubectl reads --kubeconfig, else
// the files $KUBECONFIG lists (merged, missing ones skipped), else ~/.kube/config; with none of them and outside
// a pod it falls back to http://localhost:8080, unauthenticated and unencrypted. The report refuses that
// fallback: a cluster must be named.
// @see https://kubernetes.io/docs/concepts/configuration/organize-cluster-access-kubeconfig/

export interface KubeTargetFlags {
  readonly kubeconfig?: string;
  readonly context?: string;
}

/** Where the credentials come from, and which API server they reach. */
export interface KubeTarget {
  /** The kubectl arguments that select it: --kubeconfig and --context as given. */
  readonly kubectlArgs: readonly string[];
  /** The kubeconfig files read, or "in-cluster service account". */
  readonly source: string;
  readonly context?: string;
  readonly server: string;
}

/** A problem with the kubeconfig or kubectl: the user's to fix, said in one line. */
export class KubeTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KubeTargetError";
  }
}

const IN_CLUSTER_TOKEN = "/var/run/secrets/kubernetes.io/serviceaccount/token";

/** The kubeconfig files kubectl would read, as it chooses them. */
function kubeconfigFiles(flags: KubeTargetFlags, env: NodeJS.ProcessEnv): { readonly files: readonly string[]; readonly from: string } {
  if (flags.kubeconfig !== undefined) return { files: fs.existsSync(flags.kubeconfig) ? [flags.kubeconfig] : [], from: "--kubeconfig" };
  const listed = (env.KUBECONFIG ?? "").split(path.delimiter).filter((f) => f !== "");
  if (listed.length > 0) return { files: listed.filter((f) => fs.existsSync(f)), from: `$KUBECONFIG (${listed.join(path.delimiter)})` };
  const home = env.HOME ?? os.homedir();
  const fallback = path.join(home, ".kube", "config");
  return { files: fs.existsSync(fallback) ? [fallback] : [], from: fallback };
}

/**
 * kubectl's own view of the context: its API server, with no credential read or printed. Asynchronous: some
 * kubectl builds (the Google Cloud CLI's dispatcher) ask the API server's version first, which must be able to
 * answer meanwhile when it runs in this process (a test's stand-in).
 */
function viewConfig(kubectl: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ server?: string; context?: string }> {
  return new Promise((resolve, reject) => {
    execFile(kubectl, [...args, "config", "view", "--minify", "-o", "json"], { encoding: "utf8", env, timeout: 30_000 }, (error, stdout, stderr) => {
      if (error !== null && (error as NodeJS.ErrnoException).code === "ENOENT") {
        reject(
          new KubeTargetError(
            "kubectl is not on PATH: the report reads the cluster through kubectl, with whatever authentication your kubeconfig uses (install kubectl, or save a state with it elsewhere and pass --state)",
          ),
        );
      } else if (error !== null) {
        reject(new KubeTargetError(`kubectl could not read the kubeconfig: ${stderr.trim().split("\n")[0] || error.message}`));
      } else {
        const config = JSON.parse(stdout) as { "current-context"?: string; clusters?: { cluster?: { server?: string } }[] };
        resolve({ server: config.clusters?.[0]?.cluster?.server, context: config["current-context"] });
      }
    });
  });
}

/**
 * The cluster kubectl would reach with these flags, or a KubeTargetError: no kubeconfig at all (kubectl would
 * fall back to localhost:8080), a context that is not there, a context without a server, or no kubectl.
 */
export async function resolveKubeTarget(flags: KubeTargetFlags, env: NodeJS.ProcessEnv, kubectl = "kubectl"): Promise<KubeTarget> {
  const args = [
    ...(flags.kubeconfig === undefined ? [] : ["--kubeconfig", flags.kubeconfig]),
    ...(flags.context === undefined ? [] : ["--context", flags.context]),
  ];
  const { files, from } = kubeconfigFiles(flags, env);
  if (files.length === 0) {
    if (flags.kubeconfig !== undefined) throw new KubeTargetError(`--kubeconfig: ${flags.kubeconfig}: no such file`);
    const inCluster = env.KUBERNETES_SERVICE_HOST !== undefined && fs.existsSync(IN_CLUSTER_TOKEN);
    if (!inCluster) {
      throw new KubeTargetError(
        `no kubeconfig found (${from} does not exist): kubectl would fall back to an unauthenticated http://localhost:8080, which this report refuses; name the cluster with --kubeconfig <file> (aws eks update-kubeconfig --name <cluster> writes one), or set KUBECONFIG`,
      );
    }
    return { kubectlArgs: args, source: "in-cluster service account", context: flags.context, server: `https://${env.KUBERNETES_SERVICE_HOST}` };
  }
  const { server, context } = await viewConfig(kubectl, args, env);
  if (server === undefined || server === "") {
    throw new KubeTargetError(`the kubeconfig's context ${context ?? "(none)"} names no API server (${files.join(", ")}); pick another with --context`);
  }
  if (server.startsWith("http://")) {
    throw new KubeTargetError(`the context ${context ?? "(current)"} reaches ${server} without TLS; the report reads clusters over HTTPS only`);
  }
  return { kubectlArgs: args, source: files.join(path.delimiter), context, server };
}
