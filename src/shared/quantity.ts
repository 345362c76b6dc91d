// Kubernetes resource quantities ("250m", "1.5Gi", "1e3", "512M") as plain numbers, the way the API server
// reads them. Two conversions matter to the planner: CPU in millicores and memory in bytes, both rounded up
// as resource.Quantity's MilliValue() and Value() do (a request of 0.0001 CPU is 1m, never 0).
// @see https://kubernetes.io/docs/reference/kubernetes-api/common-definitions/quantity/

const SUFFIXES: Readonly<Record<string, number>> = {
  "": 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** The serialization grammar of resource.Quantity: a signed decimal, then a binary or decimal suffix or an exponent. */
const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])|[eE]([+-]?\d+))?$/;

/** The value of a quantity in its base unit (cores, bytes, devices), or undefined when it is not one. */
export function parseQuantity(text: string | number): number | undefined {
  if (typeof text === "number") return Number.isFinite(text) ? text : undefined;
  const match = QUANTITY.exec(text.trim());
  if (match === null) return undefined;
  const [, number, suffix, exponent] = match;
  const value = Number(number) * (exponent === undefined ? SUFFIXES[suffix ?? ""] : 10 ** Number(exponent));
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Rounds a value up to an integer, but first removes floating-point noise: 0.1 * 1000 is 100.00000000000001
 * in binary, and must stay 100m.
 */
export function ceilClean(value: number): number {
  const rounded = Math.round(value);
  return Math.abs(value - rounded) < 1e-6 ? rounded : Math.ceil(value);
}

/** CPU in millicores, rounded up. */
export function cpuMillis(text: string | number): number | undefined {
  const value = parseQuantity(text);
  return value === undefined ? undefined : ceilClean(value * 1000);
}

/** Memory (or any byte quantity) in bytes, rounded up. */
export function bytes(text: string | number): number | undefined {
  const value = parseQuantity(text);
  return value === undefined ? undefined : ceilClean(value);
}

export const MIB = 2 ** 20;
export const GIB = 2 ** 30;

/** "1.5 GiB", "512 MiB": memory for people. */
export function formatBytes(value: number): string {
  if (value >= GIB) return `${Number((value / GIB).toFixed(2))} GiB`;
  return `${Number((value / MIB).toFixed(1))} MiB`;
}

/** "250m", "2.5": CPU for people, in cores above one core. */
export function formatCpu(millis: number): string {
  return millis < 1000 ? `${millis}m` : `${Number((millis / 1000).toFixed(3))}`;
}
