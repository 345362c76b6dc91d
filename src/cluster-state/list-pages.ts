import * as http from "node:http";
import { ClusterReadError } from "./kubectl-proxy";

// A list of the Kubernetes API, page by page (`limit` and `continue`), each page handed over as it arrives and
// then let go: memory holds one page of raw JSON at a time, whatever the cluster's size.
// @see https://kubernetes.io/docs/reference/using-api/api-concepts/#retrieving-large-results-sets-in-chunks

/** Objects per page: kubectl's own chunk size. */
export const PAGE_SIZE = 500;
/** How long one page may take before the API counts as not answering. */
export const PAGE_TIMEOUT_MS = 60_000;

/** Why a list could not be read, for the caller to weigh: a refusal of one kind need not end the report. */
export type ListRefusal = { readonly status: 403; readonly message: string } | { readonly status: 404 };

interface Response {
  readonly status: number;
  readonly body: string;
}

function get(socketPath: string, requestPath: string, timeoutMs: number): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath, path: requestPath, method: "GET", headers: { accept: "application/json" } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", reject);
    });
    request.setTimeout(timeoutMs, () => request.destroy(new ClusterReadError(`the API server did not answer GET ${requestPath} within ${timeoutMs / 1000} s`)));
    request.on("error", (error) => reject(error instanceof ClusterReadError ? error : new ClusterReadError(`GET ${requestPath} failed: ${error.message}`)));
    request.end();
  });
}

/** The message of a Kubernetes Status body, else the body's first line (the proxy answers in plain text). */
function statusMessage(body: string): string {
  try {
    const status = JSON.parse(body) as { message?: unknown };
    if (typeof status.message === "string") return status.message;
  } catch {
    // Not JSON: kubectl proxy's own errors are text.
  }
  return body.trim().split("\n")[0]?.slice(0, 300) || "no message";
}

/** The API server's version (GET /version), or undefined when it does not say. */
export async function serverVersion(socketPath: string, timeoutMs = PAGE_TIMEOUT_MS): Promise<string | undefined> {
  const response = await get(socketPath, "/version", timeoutMs);
  if (response.status !== 200) return undefined;
  try {
    const version = JSON.parse(response.body) as { gitVersion?: unknown };
    return typeof version.gitVersion === "string" ? version.gitVersion : undefined;
  } catch {
    return undefined;
  }
}

export interface ListOptions {
  readonly pageSize?: number;
  readonly timeoutMs?: number;
  /** Called with each page's items, in order. */
  readonly onItems: (items: readonly unknown[]) => void;
}

/**
 * Reads a whole list; resolves with the refusal when the API refuses it (403) or does not serve it (404), so the
 * caller can go on without it. A list that changed under its continue token (410 Gone: the token expired) is
 * read again from the start once, as the API asks: `onRestart` lets the caller drop what it kept. Other
 * failures reject with a ClusterReadError.
 */
export async function listAll(
  socketPath: string,
  listPath: string,
  options: ListOptions & { readonly onRestart: () => void },
): Promise<ListRefusal | undefined> {
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const timeoutMs = options.timeoutMs ?? PAGE_TIMEOUT_MS;
  for (let attempt = 0; attempt < 2; attempt++) {
    let token: string | undefined;
    let expired = false;
    do {
      const query = `?limit=${pageSize}${token === undefined ? "" : `&continue=${encodeURIComponent(token)}`}`;
      let response = await get(socketPath, `${listPath}${query}`, timeoutMs);
      // kubectl proxy answers 401 once when an exec plugin's token expired mid-read, and fetches a new one.
      if (response.status === 401) response = await get(socketPath, `${listPath}${query}`, timeoutMs);
      if (response.status === 410) {
        expired = true;
        break;
      }
      if (response.status === 403) return { status: 403, message: statusMessage(response.body) };
      if (response.status === 404 && token === undefined) return { status: 404 };
      if (response.status === 401) {
        throw new ClusterReadError(
          `the API server refused the credentials (401 Unauthorized): ${statusMessage(response.body)}; check the kubeconfig's user (aws sts get-caller-identity shows who an exec plugin such as aws eks get-token signs in as)`,
        );
      }
      if (response.status !== 200) throw new ClusterReadError(`GET ${listPath} answered ${response.status}: ${statusMessage(response.body)}`);
      let page: { items?: unknown; metadata?: { continue?: unknown } };
      try {
        page = JSON.parse(response.body) as typeof page;
      } catch {
        throw new ClusterReadError(`GET ${listPath} answered with something that is not JSON: ${statusMessage(response.body)}`);
      }
      if (!Array.isArray(page.items)) throw new ClusterReadError(`GET ${listPath} answered with no list of items`);
      options.onItems(page.items);
      token = typeof page.metadata?.continue === "string" && page.metadata.continue !== "" ? page.metadata.continue : undefined;
    } while (token !== undefined);
    if (!expired) return undefined;
    options.onRestart();
  }
  throw new ClusterReadError(
    `the list ${listPath} changed faster than it could be read (410 Gone twice: its continue token expired); try again, or save a state with kubectl get and pass --state`,
  );
}
