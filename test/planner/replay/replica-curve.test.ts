import { MAX_CURVE_SECONDS, parseReplicaCurve } from "../../../src/planner/replay/replica-curve";
import { InputError } from "../../../src/shared/input-error";

const KNOWN = new Set(["shop/Deployment/cart", "shop/Deployment/checkout", "shop/StatefulSet/redis"]);

function problemsOf(text: string): readonly string[] {
  try {
    parseReplicaCurve(text, "curve.csv", KNOWN);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error("the curve was accepted");
}

describe("replica curve", () => {
  it("reads seconds from the start, with a header, comments, blank lines and Windows line ends", () => {
    const curve = parseReplicaCurve(
      "time,workload,replicas\r\n# the morning\r\n0,shop/Deployment/cart,2\r\n\r\n90, shop/Deployment/cart ,5\r\n90,shop/StatefulSet/redis,3\r\n",
      "curve.csv",
      KNOWN,
    );
    expect(curve).toEqual({
      start: undefined,
      rows: [
        { line: 3, t: 0, workload: "shop/Deployment/cart", replicas: 2 },
        { line: 5, t: 90, workload: "shop/Deployment/cart", replicas: 5 },
        { line: 6, t: 90, workload: "shop/StatefulSet/redis", replicas: 3 },
      ],
    });
  });

  it("reads RFC 3339 times as seconds from the first, which is the start", () => {
    const curve = parseReplicaCurve("2026-11-30T08:00:00Z,shop/Deployment/cart,2\n2026-11-30T09:30:00+01:00,shop/Deployment/cart,6\n", "c", KNOWN);
    expect(curve.start?.toISOString()).toBe("2026-11-30T08:00:00.000Z");
    // 09:30 at +01:00 is 08:30 UTC.
    expect(curve.rows.map((r) => r.t)).toEqual([0, 1800]);
  });

  it("lists every problem at once, each with its line, the value and what is allowed", () => {
    const text = [
      "time,workload,replicas",
      "0,shop/Deployment/cart,2",
      "60,shop/Deployment/chekout,1",
      "30,shop/Deployment/cart,3",
      "60,shop/Deployment/cart,-1",
      "90,shop/Deployment/cart,2.5",
      "90,shop/Deployment/cart,lots",
      "120,shop/Deployment/cart,4",
      "120,shop/Deployment/cart,5",
      "soon,shop/Deployment/cart,1",
      "2026-11-30T08:00:00Z,shop/Deployment/cart,1",
      "150,cart,1",
      "180,shop/Deployment/cart",
    ].join("\n");
    expect(problemsOf(text)).toEqual([
      'line 3: workload "shop/Deployment/chekout" is not in the workload (closest: shop/Deployment/checkout, shop/Deployment/cart)',
      "line 4: time goes back (30 s after 60 s on line 3); rows are in time order",
      'line 5: replicas "-1" is negative; replicas are a whole number from 0',
      'line 6: replicas "2.5" is fractional; replicas are a whole number from 0',
      'line 7: replicas "lots" is not a number; replicas are a whole number from 0',
      "line 9: shop/Deployment/cart at 120 s is given again (first on line 8); one row per workload and time",
      'line 10: time "soon" must be seconds from the start (0, 90, 3600) or an RFC 3339 time (2026-11-29T08:00:00Z)',
      'line 11: time "2026-11-30T08:00:00Z" is RFC 3339, but the curve\'s first row gave seconds; use one form throughout',
      'line 12: workload "cart" must be namespace/Kind/name, as the plan names it (shop/Deployment/cart)',
      'line 13: "180,shop/Deployment/cart" has 2 fields; each row is time,workload,replicas',
    ]);
  });

  it("refuses a day that does not exist rather than rolling it over", () => {
    expect(problemsOf("2026-02-30T00:00:00Z,shop/Deployment/cart,1\n")).toEqual([
      'line 1: time "2026-02-30T00:00:00Z" must be seconds from the start (0, 90, 3600) or an RFC 3339 time (2026-11-29T08:00:00Z)',
    ]);
  });

  it("names the workload's own names when none is close", () => {
    expect(problemsOf("0,ops/Deployment/grafana,1\n")).toEqual([
      'line 1: workload "ops/Deployment/grafana" is not in the workload (the workload has shop/Deployment/cart, shop/Deployment/checkout, shop/StatefulSet/redis)',
    ]);
  });

  it("refuses an empty curve, and one longer than 31 days", () => {
    expect(problemsOf("time,workload,replicas\n# nothing yet\n")).toEqual(["no rows: a curve gives at least one time,workload,replicas row"]);
    expect(problemsOf(`0,shop/Deployment/cart,1\n${MAX_CURVE_SECONDS + 1},shop/Deployment/cart,2\n`)).toEqual([
      "line 2: time 2678401 s is 31.0 days from the start; at most 31 days (2678400 s) are replayed",
    ]);
    expect(() => parseReplicaCurve(`0,shop/Deployment/cart,1\n${MAX_CURVE_SECONDS},shop/Deployment/cart,2\n`, "c", KNOWN)).not.toThrow();
    // Seconds count from 0 whatever the first row says: a lone row a billion seconds in is 31 years of replay.
    expect(problemsOf("1000000000,shop/Deployment/cart,1\n")).toEqual([
      "line 1: time 1000000000 s is 11574.1 days from the start; at most 31 days (2678400 s) are replayed",
    ]);
    // Wall-clock times count from the first row: a month and a day apart is too long, wherever it starts.
    expect(problemsOf("2026-01-01T00:00:00Z,shop/Deployment/cart,1\n2026-02-01T00:00:01Z,shop/Deployment/cart,2\n")).toEqual([
      "lines 1-2: the curve spans 31.0 days; at most 31 days are replayed",
    ]);
  });

  it("tells a file wrong on every line in 50 problems and a count", () => {
    const problems = problemsOf(Array.from({ length: 80 }, (_, i) => `${i},shop/Deployment/cart,-1`).join("\n"));
    expect(problems).toHaveLength(51);
    expect(problems[50]).toBe("and 30 more");
  });
});
