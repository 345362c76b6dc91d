/**
 * A minimal Kubernetes API client over node:https. Global fetch cannot take a per-request CA, and the API
 * server certificate is signed by the cluster's own CA, so the request goes through node:https with that CA
 * as the only trust anchor.
 */
import { Agent, request as httpsRequest } from "node:https";

export type KubeMethod = "GET" | "PATCH";

export interface KubeRequest {
  readonly method: KubeMethod;
  /** Absolute API path, e.g. /apis/apps/v1/namespaces/kube-system/deployments/coredns. */
  readonly path: string;
  readonly token: string;
  /** Serialised as JSON; requires `contentType`. */
  readonly body?: unknown;
  readonly contentType?: string;
  /** Time allowed for the whole exchange, connect to last byte. */
  readonly timeoutMs: number;
}

export interface KubeClient {
  /** Resolves with the parsed JSON of a 2xx answer; rejects with KubeHttpError or KubeTransportError. */
  requestJson(request: KubeRequest): Promise<unknown>;
}

export interface KubeClientOptions {
  /** https origin of the API server, e.g. https://ABC.gr7.eu-west-1.eks.amazonaws.com. */
  readonly endpoint: URL;
  /** PEM of the cluster CA. */
  readonly caPem: string;
}

/** The API server answered with a non-2xx status. */
export class KubeHttpError extends Error {
  constructor(
    readonly status: number,
    /** The `reason` of the Kubernetes Status object, when the body is one. */
    readonly reason: string | undefined,
    detail: string,
  ) {
    super(`HTTP ${status}${reason ? ` ${reason}` : ""}${detail ? `: ${detail}` : ""}`);
    this.name = "KubeHttpError";
  }
}

/** No usable answer: connection, TLS, timeout or a malformed body. `code` is the Node error code when there is one. */
export class KubeTransportError extends Error {
  constructor(
    readonly code: string,
    detail: string,
  ) {
    super(`${code}: ${detail}`);
    this.name = "KubeTransportError";
  }
}

export const REQUEST_TIMEOUT_CODE = "REQUEST_TIMEOUT";

/** A Deployment or CoreDNS's pod list is tens of kilobytes; anything near this is not the API server we expect. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Kubernetes Status messages can quote the request; keep error messages one readable line. */
const MAX_DETAIL_CHARS = 300;

export function createKubeClient(options: KubeClientOptions): KubeClient {
  // No keep-alive: a handful of sequential calls, and a pooled socket must not outlive an invocation that
  // the runtime freezes.
  const agent = new Agent({ keepAlive: false });
  const hostname = options.endpoint.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = options.endpoint.port === "" ? 443 : Number(options.endpoint.port);

  return {
    requestJson: (request) =>
      new Promise<unknown>((resolve, reject) => {
        const payload = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body), "utf8");
        let settled = false;
        const settle = (outcome: () => void): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          outcome();
        };
        const fail = (error: unknown): void => settle(() => reject(toTransportError(error)));

        const req = httpsRequest(
          {
            agent,
            host: hostname,
            port,
            method: request.method,
            path: request.path,
            ca: options.caPem,
            rejectUnauthorized: true,
            headers: {
              Accept: "application/json",
              Authorization: `Bearer ${request.token}`,
              ...(payload === undefined ? {} : { "Content-Type": request.contentType ?? "application/json", "Content-Length": payload.length }),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            let size = 0;
            res.on("data", (chunk: Buffer) => {
              size += chunk.length;
              if (size > MAX_RESPONSE_BYTES) {
                abort(new KubeTransportError("RESPONSE_TOO_LARGE", `more than ${MAX_RESPONSE_BYTES} bytes`));
                return;
              }
              chunks.push(chunk);
            });
            res.on("error", fail);
            res.on("close", () => {
              if (!res.complete) fail(new KubeTransportError("ECONNRESET", "connection closed before the response was complete"));
            });
            res.on("end", () =>
              settle(() => {
                const text = Buffer.concat(chunks).toString("utf8");
                const status = res.statusCode ?? 0;
                if (status < 200 || status > 299) reject(httpError(status, text));
                else parseJson(text, resolve, reject);
              }),
            );
          },
        );
        // Settle before destroying: destroy() also fires close/error events that would report a vaguer cause.
        const abort = (error: KubeTransportError): void => {
          fail(error);
          req.destroy();
        };
        const timer = setTimeout(
          () => abort(new KubeTransportError(REQUEST_TIMEOUT_CODE, `no complete response within ${request.timeoutMs} ms`)),
          request.timeoutMs,
        );
        req.on("error", fail);
        req.end(payload);
      }),
  };
}

function parseJson(text: string, resolve: (value: unknown) => void, reject: (error: KubeTransportError) => void): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    reject(new KubeTransportError("INVALID_JSON", `a 2xx answer whose body is not JSON: ${truncate(text)}`));
    return;
  }
  resolve(value);
}

function httpError(status: number, text: string): KubeHttpError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return new KubeHttpError(status, undefined, truncate(text));
  }
  const statusObject = parsed as { readonly reason?: unknown; readonly message?: unknown };
  const reason = typeof statusObject.reason === "string" ? statusObject.reason : undefined;
  const message = typeof statusObject.message === "string" ? statusObject.message : "";
  return new KubeHttpError(status, reason, truncate(message));
}

// Node errors are read by shape, not `instanceof`: they may come from another realm (as under Jest).
interface NodeErrorShape {
  readonly code?: unknown;
  readonly message?: unknown;
  /** Set on the AggregateError of Node's happy-eyeballs connect, whose own code may be missing. */
  readonly errors?: unknown;
}

function toTransportError(error: unknown): KubeTransportError {
  if (error instanceof KubeTransportError) return error;
  const shape = (typeof error === "object" && error !== null ? error : {}) as NodeErrorShape;
  const first = (Array.isArray(shape.errors) ? shape.errors[0] : undefined) as NodeErrorShape | undefined;
  const code = stringOr(shape.code, stringOr(first?.code, "UNKNOWN"));
  return new KubeTransportError(code, stringOr(shape.message, stringOr(first?.message, String(error))));
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" && value !== "" ? value : fallback;
}

function truncate(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > MAX_DETAIL_CHARS ? `${oneLine.slice(0, MAX_DETAIL_CHARS)}…` : oneLine;
}
