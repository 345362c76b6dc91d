import * as http from "node:http";
import * as https from "node:https";
import { Hash } from "@smithy/hash-node";
import { HttpRequest } from "@smithy/protocol-http";
import { SignatureV4 } from "@smithy/signature-v4";
import { isRecord } from "../planner/workload/raw-object";

// Prometheus' HTTP API, as the savings report reads usage from it: instant and range queries, sent as POST forms
// (a batch of PromQL is longer than a URL should be; the API takes both), over HTTPS with the system's CAs or a
// given CA file, TLS always verified, with a bearer token or basic auth when given, or signed with AWS Signature
// Version 4 for Amazon Managed Service for Prometheus (service "aps", the workspace's region). What goes wrong is
// one line naming the server (its URL without credentials) and what to check; the credentials are never in it.
// @see https://prometheus.io/docs/prometheus/latest/querying/api/ (instant queries, range queries, format)
// @see https://docs.aws.amazon.com/prometheus/latest/userguide/AMP-APIReference-QueryMetrics.html

export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

export type PrometheusAuth =
  | { readonly kind: "bearer"; readonly token: string }
  | { readonly kind: "basic"; readonly username: string; readonly password: string }
  | { readonly kind: "sigv4"; readonly region: string; readonly credentials: () => Promise<AwsCredentials> }
  | { readonly kind: "none" };

export interface PrometheusTarget {
  /** The server's base URL, such as http://localhost:9090 or https://prometheus.example.com/prometheus. */
  readonly url: URL;
  readonly auth: PrometheusAuth;
  /** PEM of the CA that signed the server's certificate, when it is not a public one. */
  readonly ca?: string;
  /** How long one query may take, in milliseconds, before it is given up. */
  readonly timeoutMs: number;
}

/** One series of an answer: its labels, and its samples as [seconds since the epoch, value]. */
export interface PrometheusSeries {
  readonly labels: Readonly<Record<string, string>>;
  readonly samples: readonly (readonly [number, number])[];
}

/** What cannot be read from Prometheus, in words a user can act on; the report exits 1 on it. */
export class PrometheusError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PrometheusError";
  }
}

/** The URL as it may be shown: no user or password, no query string or fragment (a token may sit there). */
export function displayUrl(url: URL): string {
  const shown = new URL(url.href);
  shown.username = "";
  shown.password = "";
  shown.search = "";
  shown.hash = "";
  return shown.href.replace(/\/$/, "");
}

/** The most an answer may hold: beyond it a query asks for too much, and is refused rather than held in memory. */
export const MAX_ANSWER_BYTES = 256 * 2 ** 20;

interface RawAnswer {
  readonly status?: unknown;
  readonly errorType?: unknown;
  readonly error?: unknown;
  readonly data?: { readonly resultType?: unknown; readonly result?: unknown };
}

function authorization(auth: PrometheusAuth): string | undefined {
  if (auth.kind === "bearer") return `Bearer ${auth.token}`;
  if (auth.kind === "basic") return `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString("base64")}`;
  return undefined;
}

/** The headers once signed for Amazon Managed Service for Prometheus (SigV4, service aps, the body's hash signed). */
async function signed(
  url: URL,
  headers: Record<string, string>,
  body: string,
  auth: Extract<PrometheusAuth, { kind: "sigv4" }>,
  where: string,
): Promise<Record<string, string>> {
  let credentials: AwsCredentials;
  try {
    credentials = await auth.credentials();
  } catch (error) {
    throw new PrometheusError(
      `Amazon Managed Service for Prometheus at ${where} needs AWS credentials with aps:QueryMetrics, and none were found (${(error as Error).message}): set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`,
    );
  }
  const signer = new SignatureV4({ service: "aps", region: auth.region, credentials, sha256: Hash.bind(null, "sha256") });
  const request = new HttpRequest({
    method: "POST",
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port === "" ? undefined : Number(url.port),
    path: url.pathname,
    // The host header is signed: HttpRequest does not add it.
    headers: { ...headers, host: url.host },
    body,
  });
  return (await signer.sign(request)).headers;
}

/** The endpoint under the base URL: a Prometheus served under a path prefix keeps it. */
function endpoint(base: URL, path: string): URL {
  const url = new URL(base.href);
  url.username = "";
  url.password = "";
  url.pathname = `${url.pathname.replace(/\/$/, "")}${path}`;
  url.search = "";
  return url;
}

interface Answer {
  readonly status: number;
  readonly body: string;
  /** Where a redirect points. */
  readonly location?: string;
}

async function post(target: PrometheusTarget, path: string, form: URLSearchParams): Promise<Answer> {
  const url = endpoint(target.url, path);
  const body = form.toString();
  let headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    "content-length": String(Buffer.byteLength(body)),
    accept: "application/json",
  };
  const auth = authorization(target.auth);
  if (auth !== undefined) headers.authorization = auth;
  if (target.auth.kind === "sigv4") headers = await signed(url, headers, body, target.auth, displayUrl(target.url));
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      { method: "POST", headers, timeout: target.timeoutMs, ...(target.ca === undefined ? {} : { ca: target.ca }) },
      (response) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        response.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > MAX_ANSWER_BYTES) {
            request.destroy(
              new PrometheusError(
                `Prometheus at ${displayUrl(target.url)} answered a query with more than ${MAX_ANSWER_BYTES / 2 ** 20} MiB: shorten the usage window (--usage-window)`,
              ),
            );
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), location: response.headers.location }),
        );
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
    request.on("error", reject);
    request.end(body);
  });
}

/** A network or TLS failure, as what to check. */
function unreachable(target: PrometheusTarget, error: NodeJS.ErrnoException): PrometheusError {
  const where = displayUrl(target.url);
  const code = error.code ?? "";
  if (code === "ETIMEDOUT") {
    return new PrometheusError(
      `Prometheus at ${where} did not answer within ${target.timeoutMs / 1000} s: a query over a long window may need longer, or the server is overloaded`,
    );
  }
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
    return new PrometheusError(`cannot verify Prometheus at ${where} (${code}): give the CA that signed its certificate (TLS is always verified)`);
  }
  return new PrometheusError(
    `cannot reach Prometheus at ${where} (${code || error.message}): check the URL, and that this machine reaches it (kubectl port-forward -n <namespace> svc/<prometheus> 9090 gives http://localhost:9090)`,
  );
}

/** The answer's data, or why the server's answer is not one the report can read. */
function dataOf(target: PrometheusTarget, path: string, response: Answer): { resultType: string; result: unknown[] } {
  const where = displayUrl(target.url);
  if ((response.status === 401 || response.status === 403) && target.auth.kind === "sigv4") {
    return fail(
      `Amazon Managed Service for Prometheus at ${where} refused the request (HTTP ${response.status}): the AWS credentials must allow aps:QueryMetrics on the workspace, in its region`,
    );
  }
  if (response.status === 401 || response.status === 403) {
    return fail(`Prometheus at ${where} refused the request (HTTP ${response.status}): check the credentials given, and that they may query`);
  }
  if (response.status >= 300 && response.status < 400) {
    return fail(
      `${where} redirected the query (HTTP ${response.status}) to ${response.location ?? "another address"}: give the address Prometheus' API answers at (a login page in front of it needs a token instead)`,
    );
  }
  let answer: RawAnswer;
  try {
    answer = JSON.parse(response.body) as RawAnswer;
  } catch {
    if (response.status >= 500)
      return fail(`${where} failed the query (HTTP ${response.status}, not JSON): Prometheus, or a proxy in front of it, is down or overloaded`);
    return fail(
      `${where} does not answer as Prometheus' HTTP API (HTTP ${response.status} on ${path}, not JSON): give the address of the Prometheus server (or a compatible query endpoint), not of Grafana or a UI`,
    );
  }
  if (answer.status === "error") {
    const kind = String(answer.errorType ?? "error");
    const detail = String(answer.error ?? "").slice(0, 300);
    if (kind === "timeout")
      return fail(`Prometheus at ${where} gave up the query (timeout: ${detail}): raise its --query.timeout, or shorten the usage window`);
    return fail(`Prometheus at ${where} refused a query (${kind}: ${detail})`);
  }
  const data = answer.data;
  if (answer.status !== "success" || data === undefined || typeof data.resultType !== "string" || !Array.isArray(data.result)) {
    return fail(`${where} does not answer as Prometheus' HTTP API (HTTP ${response.status} on ${path}): give the address of the Prometheus server`);
  }
  return { resultType: data.resultType, result: data.result };
}

function fail(message: string): never {
  throw new PrometheusError(message);
}

/** A [time, "value"] pair of the API's answer; undefined when it is not one. */
function sampleOf(pair: unknown): readonly [number, number] | undefined {
  if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "number" || typeof pair[1] !== "string") return undefined;
  return [pair[0], Number(pair[1])];
}

/** The series of a vector or matrix answer, each checked for the API's shape. */
function seriesOf(target: PrometheusTarget, resultType: string, result: readonly unknown[]): PrometheusSeries[] {
  const odd = () => fail(`${displayUrl(target.url)} answered a query with a ${resultType} that is not in Prometheus' format: is it Prometheus' API?`);
  if (resultType !== "vector" && resultType !== "matrix") return odd();
  return result.map((entry) => {
    if (!isRecord(entry) || !isRecord(entry.metric ?? {})) return odd();
    const pairs = resultType === "matrix" ? entry.values : entry.value === undefined ? [] : [entry.value];
    if (!Array.isArray(pairs)) return odd();
    const samples = pairs.map(sampleOf);
    if (samples.some((s) => s === undefined)) return odd();
    const labels = Object.fromEntries(Object.entries((entry.metric ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
    return { labels, samples: samples as (readonly [number, number])[] };
  });
}

export class PrometheusApi {
  constructor(readonly target: PrometheusTarget) {}

  private async call(path: string, form: URLSearchParams): Promise<PrometheusSeries[]> {
    let response: Answer;
    try {
      response = await post(this.target, path, form);
    } catch (error) {
      if (error instanceof PrometheusError) throw error;
      throw unreachable(this.target, error as NodeJS.ErrnoException);
    }
    const { resultType, result } = dataOf(this.target, path, response);
    return seriesOf(this.target, resultType, result);
  }

  /** An instant query evaluated at `at`. */
  query(promql: string, at: Date): Promise<PrometheusSeries[]> {
    return this.call("/api/v1/query", new URLSearchParams({ query: promql, time: String(at.getTime() / 1000) }));
  }

  /** A range query from `start` to `end` (both included) every `stepSeconds`. */
  queryRange(promql: string, start: Date, end: Date, stepSeconds: number): Promise<PrometheusSeries[]> {
    return this.call(
      "/api/v1/query_range",
      new URLSearchParams({ query: promql, start: String(start.getTime() / 1000), end: String(end.getTime() / 1000), step: String(stepSeconds) }),
    );
  }
}
