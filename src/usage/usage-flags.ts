import * as fs from "node:fs";
import { pathProblems, userPath } from "../planner/cli-paths";
import { bytes, cpuMillis } from "../shared/quantity";
import { type AwsCredentials, displayUrl, type PrometheusAuth, type PrometheusTarget } from "./prometheus-api";
import { CPU_STEP_SECONDS, KRR_SIMPLE, type RightsizingMethod } from "./rightsizing-method";

// The savings report's usage flags: where Prometheus is and how to authenticate (a bearer token or basic auth from
// the environment, never a flag: a flag's value is in the shell history and the process list), the usage window,
// and the method's settings. Every problem is said at once.

export const USAGE_FLAGS = ["--prometheus", "--prometheus-ca", "--usage-window", "--cpu-percentile", "--memory-buffer", "--cpu-min", "--memory-min"] as const;

export const USAGE_HELP = `  --prometheus <url>  right-size requests from usage in this Prometheus (cAdvisor's container series), and price the
                      rightsize moves; credentials from PROMETHEUS_TOKEN (bearer) or PROMETHEUS_USERNAME and
                      PROMETHEUS_PASSWORD (basic), never printed or saved; an Amazon Managed Service for
                      Prometheus workspace URL (aps-workspaces...) is signed with AWS credentials (aps:QueryMetrics)
  --prometheus-ca <file>  the CA that signed the server's certificate, when it is not a public one
  --usage-window <d>  how far back usage is read: 14d (the default), 36h, 90m; at most 38d (11,000 5-minute steps)
  --cpu-percentile <n>  the CPU rate percentile taken as the request, default 95
  --memory-buffer <n>   percent added to the largest working set, default 15
  --cpu-min <q>       the smallest CPU request recommended, default 10m
  --memory-min <q>    the smallest memory request recommended, default 100M`;

/** Prometheus' limit on the points of one series in a range query, at the CPU samples' 5-minute step. */
const MAX_WINDOW_SECONDS = 11_000 * CPU_STEP_SECONDS;
const UNITS: Readonly<Record<string, number>> = { m: 60, h: 3600, d: 86_400 };

export interface UsageOptions {
  readonly target: PrometheusTarget;
  readonly method: RightsizingMethod;
  /** The URL as it may be shown. */
  readonly source: string;
}

/** An Amazon Managed Service for Prometheus workspace's query endpoint, and its region. */
const AMP_HOST = /^aps-workspaces\.([a-z]{2}(?:-[a-z]+)+-\d)\.(?:amazonaws\.com|api\.aws)$/;

/** The AWS SDK's default credential chain (environment, shared config and SSO, web identity, container, instance). */
async function awsCredentials(): Promise<AwsCredentials> {
  const { defaultProvider } = await import("@aws-sdk/credential-provider-node");
  return defaultProvider()();
}

function authFrom(flag: string, url: URL, env: NodeJS.ProcessEnv, problems: string[]): PrometheusAuth {
  const amp = AMP_HOST.exec(url.hostname);
  if (amp !== null) {
    if (env.PROMETHEUS_TOKEN !== undefined || env.PROMETHEUS_USERNAME !== undefined || url.username !== "") {
      problems.push(
        `${flag}: an Amazon Managed Service for Prometheus workspace is queried with AWS credentials (SigV4): unset PROMETHEUS_TOKEN and PROMETHEUS_USERNAME`,
      );
    }
    return { kind: "sigv4", region: amp[1], credentials: awsCredentials };
  }
  const token = env.PROMETHEUS_TOKEN;
  const decoded = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      problems.push(`${flag}: the user name or password in the URL is not valid percent-encoding: give them in PROMETHEUS_USERNAME and PROMETHEUS_PASSWORD`);
      return text;
    }
  };
  const username = env.PROMETHEUS_USERNAME ?? (url.username === "" ? undefined : decoded(url.username));
  const password = env.PROMETHEUS_PASSWORD ?? (url.password === "" ? undefined : decoded(url.password));
  if (token !== undefined && token !== "" && username !== undefined) {
    problems.push(`${flag}: both PROMETHEUS_TOKEN and a user name (PROMETHEUS_USERNAME, or one in the URL) are set: give one way to authenticate`);
  }
  if (token !== undefined && token !== "") return { kind: "bearer", token };
  if (username !== undefined) {
    if (password === undefined) problems.push(`${flag}: a user name is given without a password: set PROMETHEUS_PASSWORD`);
    return { kind: "basic", username, password: password ?? "" };
  }
  return { kind: "none" };
}

/** The usage options, or undefined without --prometheus; problems are added to `problems`. */
export function usageOptions(values: Readonly<Record<string, string | undefined>>, env: NodeJS.ProcessEnv, problems: string[]): UsageOptions | undefined {
  const urlText = values["--prometheus"];
  const given = USAGE_FLAGS.filter((f) => f !== "--prometheus" && values[f] !== undefined);
  if (urlText === undefined) {
    if (given.length > 0) problems.push(`${given.join(", ")}: ${given.length === 1 ? "works" : "work"} with --prometheus <url> only`);
    return undefined;
  }
  const server = prometheusTarget("--prometheus", urlText, values["--prometheus-ca"], env, problems);
  if (server === undefined) return undefined;
  const windowText = values["--usage-window"] ?? "14d";
  const window = /^(\d+)([mhd])$/.exec(windowText);
  const windowSeconds = window === null ? Number.NaN : Number(window[1]) * UNITS[window[2]];
  if (!(windowSeconds >= 3600 && windowSeconds <= MAX_WINDOW_SECONDS)) {
    problems.push(`--usage-window: got ${JSON.stringify(windowText)}; must be a whole number of minutes, hours or days (90m, 36h, 14d) from 1h to 38d`);
  }
  const number = (flag: string, fallback: number, ok: (n: number) => boolean, allowed: string) => {
    const text = values[flag];
    if (text === undefined) return fallback;
    const n = Number(text.replace(/%$/, ""));
    if (text.trim() === "" || !Number.isFinite(n) || !ok(n)) problems.push(`${flag}: got ${JSON.stringify(text)}; ${allowed}`);
    return n;
  };
  const quantity = (flag: string, fallback: number, parse: (t: string) => number | undefined, allowed: string) => {
    const text = values[flag];
    if (text === undefined) return fallback;
    const n = parse(text);
    if (n === undefined || !(n > 0)) problems.push(`${flag}: got ${JSON.stringify(text)}; ${allowed}`);
    return n ?? fallback;
  };
  const method: RightsizingMethod = {
    cpuPercentile: number("--cpu-percentile", KRR_SIMPLE.cpuPercentile, (n) => n > 0 && n <= 100, "must be a percentile above 0 and at most 100, such as 95"),
    memoryBuffer:
      values["--memory-buffer"] === undefined
        ? KRR_SIMPLE.memoryBuffer
        : 1 + number("--memory-buffer", 15, (n) => n >= 0 && n <= 1000, "must be a percent from 0 to 1000, such as 15") / 100,
    cpuMin: quantity("--cpu-min", KRR_SIMPLE.cpuMin * 1000, cpuMillis, "must be a CPU quantity above 0, such as 10m") / 1000,
    memoryMinBytes: quantity("--memory-min", KRR_SIMPLE.memoryMinBytes, bytes, "must be a memory quantity above 0, such as 100M or 128Mi"),
    windowSeconds,
  };
  return { target: server.target, method, source: server.source };
}

/**
 * A Prometheus server named by a flag (`--prometheus`, the replay's `--replicas-from`): its URL, how to
 * authenticate (from the environment, or SigV4 for Amazon Managed Service for Prometheus) and the CA of
 * `--prometheus-ca`; undefined, with its problems added, when the URL is wrong.
 */
export function prometheusTarget(
  flag: string,
  urlText: string,
  caFlag: string | undefined,
  env: NodeJS.ProcessEnv,
  problems: string[],
): { readonly target: PrometheusTarget; readonly source: string } | undefined {
  let url: URL | undefined;
  try {
    url = new URL(urlText);
  } catch {
    url = undefined;
  }
  // What the URL may hold of credentials (a user and password, a token in its query) is never echoed.
  const shown = JSON.stringify(urlText.replace(/\/\/[^@]*@/, "//…@").replace(/[?#].*$/, "…"));
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    problems.push(`${flag}: got ${shown}; must be an http or https URL such as http://localhost:9090`);
    return undefined;
  }
  if (url.search !== "" || url.hash !== "") {
    problems.push(`${flag}: got ${shown}; give the server's address without a query string or fragment (a token goes in PROMETHEUS_TOKEN)`);
    return undefined;
  }
  const auth = authFrom(flag, url, env, problems);
  let ca: string | undefined;
  if (caFlag !== undefined) {
    const resolved = userPath(caFlag, env);
    const found = pathProblems("--prometheus-ca", caFlag, resolved);
    problems.push(...found);
    if (found.length === 0) ca = fs.readFileSync(resolved, "utf8");
  }
  // Prometheus may take a while over weeks of samples; two minutes a query is generous and still gives up.
  return { target: { url, auth, ca, timeoutMs: 120_000 }, source: displayUrl(url) };
}
