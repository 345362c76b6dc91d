import * as fs from "node:fs";
import * as path from "node:path";
import {
  describeWithPrometheus,
  type InstantQueryAnswer,
  instantQuery,
  type PrometheusSeries,
  type PrometheusServer,
  startPrometheus,
  writeOpenMetrics,
} from "./prometheus-server";
import { testFolder } from "./test-folder";

// Proves the harness against the real server (Debian's prometheus 2.42): series with known answers are
// backfilled, then queried the way the savings report will query them.
//
// PromQL rules the expected values rest on (Prometheus 2.x):
// - A range selector x[5m] evaluated at t holds the samples with t-5m <= timestamp <= t: both ends are
//   included in 2.x (Prometheus 3 leaves the start out). With 1-minute samples on whole minutes and t on a
//   whole minute, that is 6 samples, one at each end of the window.
// - rate() takes last - first, adds back the value before every decrease (a counter reset: the counter is
//   assumed to have restarted from 0), then extrapolates to the window's ends: by the gap to each end when it
//   is under 1.1 average sample intervals, else by half an interval; towards the start, never past the point
//   where the counter would reach 0. With a sample at each end both gaps are 0, nothing is extrapolated, and
//   rate = (increase) / 300 exactly.
// - A subquery expr[2h:5m] evaluated at T evaluates expr at the multiples of 5m since the epoch (not of T)
//   from T-2h to T, both included in 2.x: with T on a multiple of 5m that is 25 points (24 in Prometheus 3).
// - quantile_over_time(φ, ...) sorts the n values and interpolates linearly at rank φ·(n-1):
//   v[floor] · (1 - w) + v[floor + 1] · w with w = rank - floor(rank), in float64 as below.
// - An instant selector looks back up to --query.lookback-delta (5m) for the latest sample. Backfilled data has
//   no staleness markers, so a series that stopped at T still answers with its last value until T+5m.

const MINUTE = 60_000;
const MiB = 1024 * 1024;
/** 2024-01-15T12:00:00Z, a multiple of 5 minutes: the time every query is evaluated at. */
const T = Date.UTC(2024, 0, 15, 12, 0, 0);
const T_SECONDS = T / 1000;
/** Samples every minute from T-3h to T: every 5m window of the last 2h is fully covered. */
const START = T - 180 * MINUTE;
const MINUTES = 180;

const labels = (pod: string, namespace = "x") => ({ namespace, pod, container: "app" });

/** A counter from START, adding `increment(end of the minute)` core-seconds each minute, sampled at each minute. */
function counter(first: number, increment: (minuteEndMs: number) => number, resetAfterMs?: number): Array<[number, number]> {
  const samples: Array<[number, number]> = [[START, first]];
  let value = first;
  for (let minute = 1; minute <= MINUTES; minute++) {
    const time = START + minute * MINUTE;
    // After the reset the process' counter starts again from 0, then counts this minute's usage.
    value = resetAfterMs !== undefined && time - MINUTE === resetAfterMs ? increment(time) : value + increment(time);
    samples.push([time, value]);
  }
  return samples;
}

function gauge(value: (timeMs: number) => number): Array<[number, number]> {
  return Array.from({ length: MINUTES + 1 }, (_, minute): [number, number] => [START + minute * MINUTE, value(START + minute * MINUTE)]);
}

/** The 5-minute window (aligned to the epoch) a minute ending at `timeMs` falls in, named by its end. */
const windowEnd = (timeMs: number) => Math.ceil(timeMs / (5 * MINUTE)) * 5 * MINUTE;

// steady: 0.25 core: +15 core-seconds a minute, an integer, so every rate is 75 / 300 = 0.25 exactly.
// bursty: 0.1 core (+6 a minute), but 0.5, 1 and 2 cores in the windows ending T-90m, T-60m and T-30m.
// restarted: 0.25 core, restarted (counter back to 0) right after the sample at T-62m.
const BURSTS = new Map([
  [T - 90 * MINUTE, 30],
  [T - 60 * MINUTE, 60],
  [T - 30 * MINUTE, 120],
]);
const RESET_AFTER = T - 62 * MINUTE;
const STEADY_FIRST = 1000;
/** The restarted counter's value at the last sample before the reset. */
const BEFORE_RESET = STEADY_FIRST + 15 * ((RESET_AFTER - START) / MINUTE);

const SERIES: PrometheusSeries[] = [
  { metric: "container_cpu_usage_seconds_total", labels: labels("steady-0"), samples: counter(STEADY_FIRST, () => 15) },
  { metric: "container_cpu_usage_seconds_total", labels: labels("bursty-0"), samples: counter(500, (time) => BURSTS.get(windowEnd(time)) ?? 6) },
  { metric: "container_cpu_usage_seconds_total", labels: labels("restarted-0"), samples: counter(STEADY_FIRST, () => 15, RESET_AFTER) },
  // Another namespace, which the namespace="x" selector must leave out.
  { metric: "container_cpu_usage_seconds_total", labels: labels("other-0", "y"), samples: counter(0, () => 60) },
  // steady: 100Mi, a 300Mi peak at T-47m, and a 500Mi one at T-2h-1m, just outside a 2h window.
  {
    metric: "container_memory_working_set_bytes",
    labels: labels("steady-0"),
    samples: gauge((time) => (time === T - 47 * MINUTE ? 300 * MiB : time === T - 121 * MINUTE ? 500 * MiB : 100 * MiB)),
  },
  { metric: "container_memory_working_set_bytes", labels: labels("bursty-0"), samples: gauge(() => 200 * MiB) },
  { metric: "container_memory_working_set_bytes", labels: labels("restarted-0"), samples: gauge((time) => (time <= RESET_AFTER ? 150 * MiB : 50 * MiB)) },
  // kube-state-metrics: 1 once the container has been OOM-killed.
  {
    metric: "kube_pod_container_status_last_terminated_reason",
    labels: { ...labels("restarted-0"), reason: "OOMKilled" },
    samples: gauge(() => 1).filter(([time]) => time > RESET_AFTER),
  },
  // The file format: a label value needing OpenMetrics escapes, and timestamps with milliseconds.
  {
    metric: "aeks_format_check",
    labels: { note: 'quote " backslash \\ newline \n end' },
    samples: [
      [T - 60_001, 1],
      [T - 877, 2],
    ],
  },
];

/** Prometheus' quantile (promql/quantile.go), in the same float64 operations. */
function prometheusQuantile(q: number, values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const lower = Math.max(0, Math.floor(rank));
  const upper = Math.min(sorted.length - 1, lower + 1);
  const weight = rank - Math.floor(rank);
  return sorted[lower]! * (1 - weight) + sorted[upper]! * weight;
}

/** The answer's samples as pod -> value (Prometheus prints floats in Go's shortest form, which Number reads back exactly). */
function byPod(answer: InstantQueryAnswer): Record<string, number> {
  if (answer.status !== "success") throw new Error(`${answer.errorType}: ${answer.error}`);
  return Object.fromEntries(answer.result.map((sample) => [sample.metric.pod ?? "", Number(sample.value[1])]));
}

describeWithPrometheus("prometheus-server harness (real Prometheus)", () => {
  let server: PrometheusServer;
  const query = async (promql: string, time = T_SECONDS) => instantQuery(server.url, promql, time);

  beforeAll(async () => {
    server = await startPrometheus(SERIES);
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("is a Prometheus, loaded with every sample written", async () => {
    const buildinfo: unknown = await (await fetch(`${server.url}/api/v1/status/buildinfo`)).json();
    expect(buildinfo).toMatchObject({ status: "success", data: { version: expect.stringMatching(/^2\./) } });
    expect(server.file).toMatchObject({ series: SERIES.length, minTimeMs: START, maxTimeMs: T });
    expect(byPod(await query("sum(count_over_time(container_cpu_usage_seconds_total[1d]))"))).toEqual({ "": 4 * (MINUTES + 1) });
  });

  it("95th percentile of the 5m CPU rate over 2h, at 5m steps", async () => {
    const cpu = 'rate(container_cpu_usage_seconds_total{namespace="x"}[5m])';
    // 25 points: T-2h and T both included (2.x).
    expect(byPod(await query(`count_over_time(${cpu}[2h:5m])`))).toEqual({ "steady-0": 25, "bursty-0": 25, "restarted-0": 25 });

    // bursty: 22 windows at 0.1, then 0.5, 1 and 2; rank 0.95 * 24 = 22.8 lies between 0.5 and 1.
    const bursty = Array.from({ length: 25 }, (_, step) => (BURSTS.get(T - 120 * MINUTE + step * 5 * MINUTE) ?? 6) / 60);
    const expectedBursty = prometheusQuantile(0.95, bursty);
    expect(expectedBursty).toBeCloseTo(0.9, 12);

    const p95 = byPod(await query(`quantile_over_time(0.95, ${cpu}[2h:5m])`));
    expect(p95).toEqual({ "steady-0": 0.25, "bursty-0": expectedBursty, "restarted-0": 0.25 });
    // The bursts themselves, each window's own rate exactly.
    expect(byPod(await query(`max_over_time(${cpu}[2h:5m])`))).toEqual({ "steady-0": 0.25, "bursty-0": 2, "restarted-0": 0.25 });
  });

  it("the peak working set over 2h, leaving out the older, larger peak", async () => {
    const peaks = byPod(await query("max_over_time(container_memory_working_set_bytes[2h])"));
    expect(peaks).toEqual({ "steady-0": 300 * MiB, "bursty-0": 200 * MiB, "restarted-0": 150 * MiB });
    // Over 3h the 500Mi peak at T-2h-1m is in.
    expect(byPod(await query('max_over_time(container_memory_working_set_bytes{pod="steady-0"}[3h])'))).toEqual({ "steady-0": 500 * MiB });
  });

  it("rate() counts through a counter reset (a container restart)", async () => {
    const restarted = 'container_cpu_usage_seconds_total{pod="restarted-0"}';
    expect(byPod(await query(`resets(${restarted}[2h])`))).toEqual({ "restarted-0": 1 });
    // The window ending T-60m holds the samples at T-65m..T-60m: the last 4 before the reset, 15 and 30 after.
    // last - first = 30 - (BEFORE_RESET - 45); adding back BEFORE_RESET gives 75: 0.25 core, as before the restart.
    const atWindow = T_SECONDS - 60 * 60;
    expect(byPod(await query(`rate(${restarted}[5m])`, atWindow))).toEqual({ "restarted-0": 0.25 });
    // delta() (for gauges) does no such correction: it sees the counter fall.
    expect(byPod(await query(`delta(${restarted}[5m])`, atWindow))).toEqual({ "restarted-0": 75 - BEFORE_RESET });
    // 120 minutes of 15 core-seconds each, through the reset.
    expect(byPod(await query(`increase(${restarted}[2h])`))).toEqual({ "restarted-0": 1800 });
  });

  it("kube-state-metrics' last terminated reason, as KRR's OOM query joins it", async () => {
    const oom = 'max_over_time(kube_pod_container_status_last_terminated_reason{reason="OOMKilled", namespace="x"}[2h])';
    expect(byPod(await query(oom))).toEqual({ "restarted-0": 1 });
  });

  it("KRR's simple-strategy queries, with its shape (max by container, pod, job; rate over the step; subquery over the history)", async () => {
    const selector = 'namespace="x", pod=~"steady-0|bursty-0|restarted-0", container="app"';
    const cpu = `quantile_over_time(0.95, max(rate(container_cpu_usage_seconds_total{${selector}}[5m])) by (container, pod, job)[2h:5m])`;
    const memory = `max_over_time(max(container_memory_working_set_bytes{${selector}}) by (container, pod, job)[2h:5m])`;
    const points = `count_over_time(max(container_memory_working_set_bytes{${selector}}) by (container, pod, job)[2h:5m])`;
    expect(byPod(await query(cpu))).toEqual(byPod(await query('quantile_over_time(0.95, rate(container_cpu_usage_seconds_total{namespace="x"}[5m])[2h:5m])')));
    // The subquery samples the gauge every 5m: steady's 300Mi at T-47m falls between T-50m and T-45m and is MISSED.
    expect(byPod(await query(memory))).toEqual({ "steady-0": 100 * MiB, "bursty-0": 200 * MiB, "restarted-0": 150 * MiB });
    expect(byPod(await query(points))).toEqual({ "steady-0": 25, "bursty-0": 25, "restarted-0": 25 });
  });

  it("looks back 5 minutes for an instant value: backfilled series have no staleness markers", async () => {
    const steady = 'container_memory_working_set_bytes{pod="steady-0"}';
    expect(byPod(await query(steady, T_SECONDS + 4 * 60))).toEqual({ "steady-0": 100 * MiB });
    expect(byPod(await query(steady, T_SECONDS + 6 * 60))).toEqual({});
  });

  it("reads back escaped label values and millisecond timestamps", async () => {
    const answer = await query("timestamp(aeks_format_check)");
    expect(answer.status === "success" && answer.result.map((sample) => [sample.metric.note, Number(sample.value[1])])).toEqual([
      ['quote " backslash \\ newline \n end', (T - 877) / 1000],
    ]);
    expect(byPod(await query("min_over_time(timestamp(aeks_format_check)[5m:1s])"))).toEqual({ "": (T - 60_001) / 1000 });
  });

  it("answers a bad query with Prometheus' error shape", async () => {
    const answer = await query("rate(container_cpu_usage_seconds_total[5m]");
    expect(answer).toMatchObject({ status: "error", httpStatus: 400, errorType: "bad_data" });
  });
});

// The file writer alone (no server needed): what promtool would silently drop is refused instead.
describe("writeOpenMetrics", () => {
  const write = (series: PrometheusSeries[]) => {
    const file = path.join(testFolder("aeks-openmetrics"), "series.om");
    const stats = writeOpenMetrics(series, file);
    return { stats, text: fs.readFileSync(file, "utf8") };
  };

  it("writes TYPE lines, escaped labels in name order, seconds with milliseconds, and # EOF", () => {
    const { stats, text } = write([
      {
        metric: "c_total",
        labels: { z: "1", a: 'x"y' },
        samples: [
          [1_000, 1.5],
          [62_005, 3],
        ],
      },
      {
        metric: "g",
        samples: [
          [5, Number.NaN],
          [6, Number.POSITIVE_INFINITY],
        ],
      },
    ]);
    expect(text).toBe(
      '# TYPE c counter\nc_total{a="x\\"y",z="1"} 1.5 1\nc_total{a="x\\"y",z="1"} 3 62.005\n# TYPE g gauge\ng NaN 0.005\ng +Inf 0.006\n# EOF\n',
    );
    expect(stats).toEqual({ series: 2, samples: 4, bytes: Buffer.byteLength(text), minTimeMs: 5, maxTimeMs: 62_005 });
  });

  it("refuses what promtool would drop or misread", () => {
    expect(() =>
      write([
        {
          metric: "m",
          samples: [
            [2_000, 1],
            [1_000, 1],
          ],
        },
      ]),
    ).toThrow("is not after 2000");
    expect(() =>
      write([
        { metric: "m", labels: { a: "1" }, samples: [[1, 1]] },
        { metric: "m", labels: { a: "1" }, samples: [[2, 1]] },
      ]),
    ).toThrow("given twice");
    expect(() => write([{ metric: "m", labels: { a: "" }, samples: [] }])).toThrow("label a is empty");
    expect(() => write([{ metric: "m", samples: [[1.5, 1]] }])).toThrow("whole number of milliseconds");
    expect(() => write([{ metric: "bad-name", samples: [] }])).toThrow("not a metric name");
  });
});
