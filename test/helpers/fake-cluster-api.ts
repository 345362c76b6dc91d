import * as fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import * as path from "node:path";
import { serveHttps } from "./local-https";
import type { TestPki } from "./test-pki";

// A real HTTPS server on 127.0.0.1 playing a cluster's Kubernetes API for readers of its state: lists served
// page by page as the API server does (limit, continue, metadata.continue), bearer-token authentication, only
// GET and HEAD accepted (anything else is answered 405 and recorded, so a test can prove none was sent), and the
// failures a reader must survive: 401, 403 for one list, 404 for a list not served (a CRD not installed), 410
// Gone for an expired continue token, and an answer that never comes.

export interface FakeClusterApiOptions {
  readonly pki: TestPki;
  /** Objects by list path, such as /api/v1/pods; a path not here is answered 404. */
  readonly lists: Readonly<Record<string, readonly unknown[]>>;
  /** Bearer tokens the server accepts; any other (or none) is answered 401. */
  readonly tokens: readonly string[];
  /** List paths answered 403. */
  readonly forbidden?: readonly string[];
  /** List paths whose first continued page is answered 410 Gone (once each, or every time with "always"). */
  readonly expire?: Readonly<Record<string, "once" | "always">>;
  /** List paths that never answer. */
  readonly hang?: readonly string[];
}

export interface ServedRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization?: string;
}

export interface FakeClusterApi {
  readonly url: string;
  readonly requests: readonly ServedRequest[];
  close(): Promise<void>;
}

const status = (code: number, reason: string, message: string) => ({
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message,
  reason,
  code,
});

export async function startFakeClusterApi(options: FakeClusterApiOptions): Promise<FakeClusterApi> {
  const requests: ServedRequest[] = [];
  const expired = new Set<string>();
  const hanging: ServerResponse[] = [];
  const send = (response: ServerResponse, code: number, body: unknown) => {
    response.writeHead(code, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  };
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "https://127.0.0.1");
    requests.push({ method: request.method ?? "", path: `${url.pathname}${url.search}`, authorization: request.headers.authorization });
    if (request.method !== "GET" && request.method !== "HEAD") {
      send(response, 405, status(405, "MethodNotAllowed", `${request.method} is not allowed: this stand-in is read-only`));
      return;
    }
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (token === undefined || !options.tokens.includes(token)) {
      send(response, 401, status(401, "Unauthorized", "Unauthorized"));
      return;
    }
    if (url.pathname === "/version") {
      send(response, 200, { major: "1", minor: "35", gitVersion: "v1.35.0-eks-stand-in" });
      return;
    }
    if (options.hang?.includes(url.pathname)) {
      hanging.push(response);
      return;
    }
    if (options.forbidden?.includes(url.pathname)) {
      const resource = url.pathname.split("/").pop();
      send(response, 403, status(403, "Forbidden", `${resource} is forbidden: User "reader" cannot list resource "${resource}" at the cluster scope`));
      return;
    }
    const items = options.lists[url.pathname];
    if (items === undefined) {
      send(response, 404, status(404, "NotFound", "the server could not find the requested resource"));
      return;
    }
    const limit = Number(url.searchParams.get("limit") ?? "0") || items.length;
    const token_ = url.searchParams.get("continue");
    const rule = options.expire?.[url.pathname];
    if (token_ !== null && rule !== undefined && (rule === "always" || !expired.has(url.pathname))) {
      expired.add(url.pathname);
      send(
        response,
        410,
        status(
          410,
          "Expired",
          "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.",
        ),
      );
      return;
    }
    const offset = token_ === null ? 0 : Number(Buffer.from(token_, "base64url").toString("utf8"));
    const page = items.slice(offset, offset + limit);
    const next = offset + limit < items.length ? Buffer.from(String(offset + limit), "utf8").toString("base64url") : undefined;
    const kind = url.pathname.split("/").pop() ?? "";
    send(response, 200, {
      kind: `${kind}List`,
      apiVersion: "v1",
      metadata: { resourceVersion: "1", ...(next === undefined ? {} : { continue: next, remainingItemCount: items.length - offset - limit }) },
      items: page,
    });
  };
  const { url, close } = await serveHttps(options.pki, handle, () => {
    for (const response of hanging) response.destroy();
  });
  return { url, requests, close };
}

/** A kubeconfig for the stand-in, in `folder`: bearer-token auth, or an exec plugin that prints the token (and counts its runs). */
export function writeKubeconfig(folder: string, api: FakeClusterApi, pki: TestPki, auth: { readonly token: string } | { readonly execToken: string }): string {
  const ca = path.join(folder, "ca.crt");
  fs.writeFileSync(ca, pki.caPem);
  let user: string;
  if ("token" in auth) user = `      token: ${auth.token}`;
  else {
    const plugin = path.join(folder, "get-token.sh");
    const runs = path.join(folder, "exec-runs");
    fs.writeFileSync(
      plugin,
      `#!/bin/sh\necho run >> "${runs}"\nprintf '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"${auth.execToken}"}}'\n`,
      { mode: 0o700 },
    );
    user = `      exec:\n        apiVersion: client.authentication.k8s.io/v1beta1\n        command: ${plugin}\n        interactiveMode: Never`;
  }
  const file = path.join(folder, "kubeconfig");
  fs.writeFileSync(
    file,
    `apiVersion: v1
kind: Config
clusters:
  - name: stand-in
    cluster:
      server: ${api.url}
      certificate-authority: ${ca}
users:
  - name: reader
    user:
${user}
contexts:
  - name: stand-in
    context: {cluster: stand-in, user: reader}
current-context: stand-in
`,
    { mode: 0o600 },
  );
  return file;
}
