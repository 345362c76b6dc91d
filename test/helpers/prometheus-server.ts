import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { testFolder } from "./test-folder";

// A real Prometheus server on 127.0.0.1, loaded with series a test makes: the series are written as an
// OpenMetrics text file, `promtool tsdb create-blocks-from openmetrics` turns that file into TSDB blocks (the
// documented backfilling path), and `prometheus` is started on those blocks with no scrape targets, so what it
// answers comes from the test's samples alone. Debian's `prometheus` package (2.42) provides both binaries:
//   apt-get install -y --no-install-recommends prometheus
// (the postinst enables a systemd unit; in a container without systemd, invoke-rc.d does not start it when
// policy-rc.d says no, as Docker images' does; the harness never uses that service or /var/lib/prometheus).
//
// What promtool 2.42 does with the file, found by trying it here:
// - The file must end with "# EOF" (otherwise: "data does not end with # EOF"), timestamps are in seconds,
//   and a fraction of a second is read to the millisecond.
// - `# TYPE` is syntax only: `# TYPE x counter` with samples named x_total, `# TYPE x_total counter`, gauge,
//   unknown and no TYPE line at all are all accepted, and blocks keep no metadata, so PromQL answers do not
//   depend on it. Counters are declared the OpenMetrics way (family name without _total).
// - Within one series, a sample not later than the previous one is DROPPED SILENTLY; `writeOpenMetrics`
//   therefore refuses samples out of order, and a series given twice.
// - It re-reads the whole file once per block range (2h by default: 14 days = 168 passes, each writing a
//   block). `--max-block-duration` (a hidden flag) widens the range to the largest of 2h·3^k below it; with
//   the default here (4374h, about 182 days) a test's data is one or two blocks and one or two passes.
//
// And what prometheus 2.42 does with the blocks:
// - Time retention counts back from the newest block's end, not from the wall clock: data from years ago is
//   kept and queryable, but blocks more than the retention (default 15d) older than the newest one are
//   deleted at startup. The harness passes a retention of 10 years.
// - Compaction is switched off (min = max block duration = 2h, as Thanos sidecars do) so the server does not
//   start rewriting the backfilled blocks in the background a minute after it starts.
// - `--web.listen-address=127.0.0.1:0` takes a free port; the server logs it ("Listening on" address=...),
//   which is read from its log rather than guessed, so no two servers race for a port.

export interface PrometheusSeries {
  /** Metric name, such as container_cpu_usage_seconds_total. */
  readonly metric: string;
  /** Labels other than the name; an empty value is refused (Prometheus treats it as no label). */
  readonly labels?: Readonly<Record<string, string>>;
  /** [timestamp in whole milliseconds since the epoch, value], timestamps strictly ascending. */
  readonly samples: Iterable<readonly [number, number]>;
}

export interface OpenMetricsFileStats {
  readonly series: number;
  readonly samples: number;
  readonly bytes: number;
  readonly minTimeMs: number;
  readonly maxTimeMs: number;
}

export interface PrometheusStartOptions {
  /** `--storage.tsdb.retention.time`; counted back from the newest sample. Default 10y. */
  readonly retention?: string;
  /** `--query.lookback-delta` (Prometheus' default 5m): how far back an instant selector looks for a sample. */
  readonly lookbackDelta?: string;
  /** promtool's `--max-block-duration`. Default 4374h (the largest range it uses below 10000h). */
  readonly maxBlockDuration?: string;
  /** How long to wait for /-/ready. Default 60s. */
  readonly readyTimeoutMs?: number;
  /** Where the temporary folder goes; default: the test run's temporary folder (test-folder.ts). */
  readonly parentDir?: string;
}

export interface PrometheusTimings {
  readonly writeFileMs: number;
  readonly createBlocksMs: number;
  readonly startToReadyMs: number;
}

export interface PrometheusServer {
  /** Base URL, such as http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  readonly file: OpenMetricsFileStats;
  /** Bytes of the TSDB blocks promtool wrote. */
  readonly blockBytes: number;
  readonly timings: PrometheusTimings;
  /** What the server has logged so far (the last 64 KiB). */
  log(): string;
  /** Stops the server (SIGTERM, then SIGKILL after 10 s) and removes its temporary folder. Safe to call twice. */
  stop(): Promise<void>;
}

export interface PrometheusBinaries {
  readonly prometheus: string;
  readonly promtool: string;
}

/** The prometheus and promtool binaries: on PATH, or else Debian's /usr/bin ones. */
export function findPrometheusBinaries(): PrometheusBinaries | undefined {
  const find = (name: string): string | undefined => {
    for (const candidate of [name, `/usr/bin/${name}`]) {
      if (spawnSync(candidate, ["--version"], { encoding: "utf8" }).status === 0) return candidate;
    }
    return undefined;
  };
  const prometheus = find("prometheus");
  const promtool = find("promtool");
  return prometheus !== undefined && promtool !== undefined ? { prometheus, promtool } : undefined;
}

let available: boolean | undefined;

/** Whether both binaries run here (checked once per test file). */
export function prometheusAvailable(): boolean {
  available ??= findPrometheusBinaries() !== undefined;
  return available;
}

/**
 * `describe` when prometheus and promtool run here; otherwise `describe.skip`, said loudly, as the Terraform and
 * kubectl tests do: these tests prove the queries against the real server.
 */
export function describeWithPrometheus(name: string, body: () => void): void {
  if (prometheusAvailable()) {
    describe(name, body);
    return;
  }
  console.warn(`\n*** SKIPPED: no prometheus/promtool binaries (apt-get install -y --no-install-recommends prometheus); "${name}" did NOT run ***\n`);
  describe.skip(name, body);
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}

/** Seconds with a millisecond fraction, written from the integer so no float rounding creeps in. */
function formatTimestamp(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const fraction = ms - seconds * 1000;
  return fraction === 0 ? String(seconds) : `${seconds}.${String(fraction).padStart(3, "0")}`;
}

function seriesText(series: PrometheusSeries): { readonly key: string; readonly prefix: string } {
  if (!METRIC_NAME.test(series.metric)) throw new Error(`not a metric name: ${JSON.stringify(series.metric)}`);
  const labels = Object.entries(series.labels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, value] of labels) {
    if (!LABEL_NAME.test(name) || name.startsWith("__")) throw new Error(`${series.metric}: not a label name: ${JSON.stringify(name)}`);
    if (value === "") throw new Error(`${series.metric}: label ${name} is empty; Prometheus treats an empty label as absent, leave it out`);
  }
  const body = labels.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(",");
  const prefix = body === "" ? series.metric : `${series.metric}{${body}}`;
  return { key: prefix, prefix };
}

/**
 * Writes the series as an OpenMetrics text file for promtool: one `# TYPE` line per metric (counter for names
 * ending in _total, gauge otherwise), then its samples, then `# EOF`. Samples are streamed, so a benchmark can
 * pass generators for millions of them.
 */
export function writeOpenMetrics(series: Iterable<PrometheusSeries>, file: string): OpenMetricsFileStats {
  const fd = fs.openSync(file, "w");
  const typed = new Set<string>();
  const seen = new Set<string>();
  let buffer = "";
  let bytes = 0;
  let seriesCount = 0;
  let samples = 0;
  let minTimeMs = Number.POSITIVE_INFINITY;
  let maxTimeMs = Number.NEGATIVE_INFINITY;
  const write = (text: string) => {
    buffer += text;
    if (buffer.length >= 1 << 22) flush();
  };
  const flush = () => {
    bytes += fs.writeSync(fd, buffer);
    buffer = "";
  };
  try {
    for (const one of series) {
      const { key, prefix } = seriesText(one);
      if (seen.has(key)) throw new Error(`${key} given twice: promtool would drop the second one's earlier samples without a word`);
      seen.add(key);
      seriesCount += 1;
      if (!typed.has(one.metric)) {
        typed.add(one.metric);
        write(one.metric.endsWith("_total") ? `# TYPE ${one.metric.slice(0, -"_total".length)} counter\n` : `# TYPE ${one.metric} gauge\n`);
      }
      let last = Number.NEGATIVE_INFINITY;
      for (const [timeMs, value] of one.samples) {
        if (!Number.isSafeInteger(timeMs) || timeMs < 0) throw new Error(`${key}: timestamp ${timeMs} is not a whole number of milliseconds since 1970`);
        if (timeMs <= last) throw new Error(`${key}: timestamp ${timeMs} is not after ${last}; promtool would drop it without a word`);
        last = timeMs;
        write(`${prefix} ${formatValue(value)} ${formatTimestamp(timeMs)}\n`);
        samples += 1;
        if (timeMs < minTimeMs) minTimeMs = timeMs;
        if (timeMs > maxTimeMs) maxTimeMs = timeMs;
      }
    }
    write("# EOF\n");
    flush();
  } finally {
    fs.closeSync(fd);
  }
  return { series: seriesCount, samples, bytes, minTimeMs, maxTimeMs };
}

/** Runs `promtool tsdb create-blocks-from openmetrics`; throws with its output when it fails. */
export async function createBlocks(promtool: string, file: string, dataDir: string, maxBlockDuration = "4374h"): Promise<void> {
  const args = ["tsdb", "create-blocks-from", "openmetrics", "--quiet", `--max-block-duration=${maxBlockDuration}`, file, dataDir];
  const child = spawn(promtool, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-65536);
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-65536);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  if (code !== 0) throw new Error(`promtool ${args.join(" ")} exited ${code}:\n${output}`);
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(full) : fs.statSync(full).size;
  }
  return total;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function answers200(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** Stops a server still running when the test process exits (a failed test that never called stop()). */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function track(child: ChildProcess): void {
  running.add(child);
  child.on("exit", () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const server of running) server.kill("SIGKILL");
  });
}

/**
 * Writes the series, turns them into blocks and starts prometheus on them; resolves once /-/ready answers 200.
 * Everything lives in one temporary folder that stop() removes.
 */
export async function startPrometheus(series: Iterable<PrometheusSeries>, options: PrometheusStartOptions = {}): Promise<PrometheusServer> {
  const binaries = findPrometheusBinaries();
  if (binaries === undefined) throw new Error("prometheus and promtool are not installed: apt-get install -y --no-install-recommends prometheus");
  const root = options.parentDir === undefined ? testFolder("aeks-prometheus") : fs.mkdtempSync(path.join(options.parentDir, "aeks-prometheus-"));
  const removeRoot = () => fs.rmSync(root, { recursive: true, force: true });
  let child: ChildProcess | undefined;
  try {
    const dataDir = path.join(root, "data");
    const file = path.join(root, "series.om");
    const configFile = path.join(root, "prometheus.yml");

    const writeStart = performance.now();
    const stats = writeOpenMetrics(series, file);
    const writeFileMs = performance.now() - writeStart;

    const blocksStart = performance.now();
    await createBlocks(binaries.promtool, file, dataDir, options.maxBlockDuration);
    const createBlocksMs = performance.now() - blocksStart;
    fs.rmSync(file);
    const blockBytes = folderBytes(dataDir);

    // No scrape_configs: the server holds the backfilled blocks and nothing else.
    fs.writeFileSync(configFile, "global:\n  scrape_interval: 1m\n  evaluation_interval: 1m\n");
    const args = [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${dataDir}`,
      "--web.listen-address=127.0.0.1:0",
      `--storage.tsdb.retention.time=${options.retention ?? "10y"}`,
      "--storage.tsdb.min-block-duration=2h",
      "--storage.tsdb.max-block-duration=2h",
      `--query.lookback-delta=${options.lookbackDelta ?? "5m"}`,
      // The "Listening on" line that gives the port is logged at info.
      "--log.level=info",
    ];
    const readyStart = performance.now();
    const started = spawn(binaries.prometheus, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    child = started;
    track(started);
    let log = "";
    const append = (chunk: Buffer) => {
      log = (log + chunk.toString("utf8")).slice(-65536);
    };
    started.stdout?.on("data", append);
    started.stderr?.on("data", append);
    // The exit code once the process has ended (an object, so TypeScript does not narrow it to never in the loop).
    const state: { exited?: number | null } = {};
    const exit = new Promise<void>((resolve) => {
      started.on("close", (code) => {
        state.exited = code;
        resolve();
      });
    });
    started.on("error", (error) => {
      log += `\n${error.message}`;
    });

    const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
    let url: string | undefined;
    for (;;) {
      if (state.exited !== undefined) throw new Error(`prometheus exited ${state.exited} before it was ready:\n${log}`);
      if (Date.now() > deadline) throw new Error(`prometheus was not ready within ${options.readyTimeoutMs ?? 60_000} ms:\n${log}`);
      url ??= /msg="Listening on" address=(127\.0\.0\.1:\d+)/.exec(log)?.[1];
      if (url !== undefined && (await answers200(`http://${url}/-/ready`))) break;
      await sleep(25);
    }
    const startToReadyMs = performance.now() - readyStart;

    let stopped: Promise<void> | undefined;
    const stop = () => {
      stopped ??= (async () => {
        if (state.exited === undefined) {
          started.kill("SIGTERM");
          const killTimer = setTimeout(() => started.kill("SIGKILL"), 10_000);
          await exit;
          clearTimeout(killTimer);
        }
        removeRoot();
      })();
      return stopped;
    };
    return {
      url: `http://${url}`,
      file: stats,
      blockBytes,
      timings: { writeFileMs, createBlocksMs, startToReadyMs },
      log: () => log,
      stop,
    };
  } catch (error) {
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      const dead = child;
      await new Promise<void>((resolve) => {
        dead.once("close", () => resolve());
        dead.kill("SIGKILL");
      });
    }
    removeRoot();
    throw error;
  }
}

export interface PrometheusSampleValue {
  readonly metric: Readonly<Record<string, string>>;
  /** [seconds since the epoch, value as Prometheus prints it] */
  readonly value: readonly [number, string];
}

export interface PrometheusErrorAnswer {
  readonly status: "error";
  readonly errorType: string;
  readonly error: string;
}

export type InstantQueryAnswer =
  | { readonly status: "success"; readonly httpStatus: number; readonly resultType: string; readonly result: readonly PrometheusSampleValue[] }
  | (PrometheusErrorAnswer & { readonly httpStatus: number });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * POSTs an instant query (application/x-www-form-urlencoded, as Prometheus accepts on /api/v1/query) and returns
 * the answer; a vector's samples are checked for shape, a scalar comes back as one sample with no labels.
 */
export async function instantQuery(url: string, query: string, timeSeconds: number): Promise<InstantQueryAnswer> {
  const response = await fetch(`${url}/api/v1/query`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ query, time: String(timeSeconds) }).toString(),
  });
  const body: unknown = await response.json();
  if (!isRecord(body)) throw new Error(`not a Prometheus answer: ${JSON.stringify(body)}`);
  if (body.status === "error") {
    return { status: "error", httpStatus: response.status, errorType: String(body.errorType), error: String(body.error) };
  }
  const data = body.data;
  if (body.status !== "success" || !isRecord(data) || typeof data.resultType !== "string") throw new Error(`not a Prometheus answer: ${JSON.stringify(body)}`);
  const rows: unknown[] = data.resultType === "scalar" ? [{ metric: {}, value: data.result }] : Array.isArray(data.result) ? data.result : [];
  const result = rows.map((row): PrometheusSampleValue => {
    const value = isRecord(row) ? row.value : undefined;
    const metric = isRecord(row) ? row.metric : undefined;
    if (!isRecord(metric) || !Array.isArray(value) || typeof value[0] !== "number" || typeof value[1] !== "string") {
      throw new Error(`not a ${data.resultType} sample: ${JSON.stringify(row)}`);
    }
    const labels: Record<string, string> = {};
    for (const [name, labelValue] of Object.entries(metric)) labels[name] = String(labelValue);
    return { metric: labels, value: [value[0], value[1]] };
  });
  return { status: "success", httpStatus: response.status, resultType: data.resultType, result };
}
