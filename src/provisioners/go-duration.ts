/**
 * Go's time.ParseDuration, which Karpenter runs on every duration it reads (expireAfter, consolidateAfter,
 * terminationGracePeriod, budget durations, the kubelet's evictionSoftGracePeriod). The CRD patterns only
 * check the shape, so "3000000h" is admitted and then cannot be decoded: Go durations are int64 nanoseconds.
 * @see https://pkg.go.dev/time#ParseDuration
 */

const UNIT_NANOS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 MICRO SIGN
  μs: 1_000n, // U+03BC GREEK SMALL LETTER MU
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** The longest duration Go can hold: 2^63 - 1 nanoseconds, about 2,562,047 hours (292 years). */
export const MAX_GO_DURATION_NANOS = 2n ** 63n - 1n;

const SEGMENT = /([0-9]*)(?:\.([0-9]*))?(ns|us|µs|μs|ms|s|m|h)/y;

/**
 * The length of a duration in nanoseconds as Go reads it, or undefined where Go's syntax refuses it. The
 * result may exceed what Go can hold: exceedsGoDuration says so.
 */
export function goDurationNanos(text: string): bigint | undefined {
  let rest = text;
  let sign = 1n;
  if (rest.startsWith("-") || rest.startsWith("+")) {
    sign = rest.startsWith("-") ? -1n : 1n;
    rest = rest.slice(1);
  }
  if (rest === "0") return 0n;
  if (rest === "") return undefined;
  let total = 0n;
  SEGMENT.lastIndex = 0;
  while (SEGMENT.lastIndex < rest.length) {
    const match = SEGMENT.exec(rest);
    if (match === null) return undefined;
    const [, whole, fraction = "", unit] = match;
    if (whole === "" && fraction === "") return undefined;
    const scale = UNIT_NANOS[unit];
    total += BigInt(whole || "0") * scale + (BigInt(fraction || "0") * scale) / 10n ** BigInt(fraction.length);
  }
  return sign * total;
}

/** True for a duration in Go's syntax that Go cannot hold ("3000000h"); syntax errors are the patterns' to report. */
export function exceedsGoDuration(text: string): boolean {
  const nanos = goDurationNanos(text);
  return nanos !== undefined && (nanos > MAX_GO_DURATION_NANOS || nanos < -MAX_GO_DURATION_NANOS - 1n);
}

/** Why a duration that matches a CRD pattern is still refused: Karpenter could not decode the object. */
export const GO_DURATION_OVERFLOW = "is longer than Karpenter can read: Go durations hold at most 2562047h (about 292 years)";
