import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { regExpLiteral } from "../shared/regexp-literal";
import type { KubeTarget } from "./kube-target";

// The cluster, reached through `kubectl proxy` on a Unix socket: kubectl authenticates every request as the
// user's kubectl does (tokens, client certificates, exec plugins such as `aws eks get-token`, which it runs once
// and refreshes itself), verifies the server's certificate from the kubeconfig, and the report pages the API
// itself, a page at a time, so a list of 150,000 pods is never one text. The socket sits in a folder only this
// user may enter (0700), so no other local user borrows the credentials, and the proxy refuses every method
// but GET and HEAD and every path but the lists the report reads: it stays read-only even if this code were not.
// @see https://kubernetes.io/docs/reference/kubectl/generated/kubectl_proxy/

/** How long kubectl may take to start: an exec plugin may call AWS first. */
const START_TIMEOUT_MS = 60_000;

export interface KubectlProxy {
  readonly socketPath: string;
  close(): void;
}

/** Something went wrong reaching the cluster (not the user's input): said in one line, exit status 1. */
export class ClusterReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ClusterReadError";
  }
}

/** Escapes a path for the proxy's path regular expressions. */

/** Starts `kubectl proxy` on a private Unix socket, accepting GETs of `paths` (and /version) only. */
export async function startKubectlProxy(target: KubeTarget, paths: readonly string[], kubectl = "kubectl"): Promise<KubectlProxy> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "aeks-kube-"));
  fs.chmodSync(folder, 0o700);
  const socketPath = path.join(folder, "api.sock");
  const accept = `^(${["/version", ...paths].map(regExpLiteral).join("|")})$`;
  const child = spawn(
    kubectl,
    [
      ...target.kubectlArgs,
      "proxy",
      `--unix-socket=${socketPath}`,
      "--reject-methods=^(POST|PUT|PATCH|DELETE|CONNECT|OPTIONS|TRACE)$",
      `--accept-paths=${accept}`,
      // The report reads cluster objects only: nothing under /api/v1/namespaces/*/pods/*/exec and the like.
      "--reject-paths=^/api/.*/(exec|attach|portforward|proxy)",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const close = () => {
    child.kill();
    fs.rmSync(folder, { recursive: true, force: true });
  };
  try {
    await ready(child);
  } catch (error) {
    close();
    throw error;
  }
  return { socketPath, close };
}

/** Resolves when the proxy says it serves; rejects with kubectl's own first error line when it exits first. */
function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = "";
    let stdout = "";
    const timer = setTimeout(() => {
      reject(new ClusterReadError(`kubectl proxy did not start within ${START_TIMEOUT_MS / 1000} s${stderr === "" ? "" : `: ${firstLine(stderr)}`}`));
    }, START_TIMEOUT_MS);
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes("Starting to serve on")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new ClusterReadError(`kubectl proxy could not start: ${error.message}`));
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new ClusterReadError(`kubectl proxy exited (status ${code}): ${firstLine(stderr) || "no message"}`));
    });
  });
}

const firstLine = (text: string) => text.trim().split("\n")[0] ?? "";
