import { KubeHttpError, KubeTransportError } from "../../../src/lambda-coredns/runtime/kube-client";
import { backoffDelayMs, DEFAULT_BACKOFF, isRetryable } from "../../../src/lambda-coredns/runtime/retry-policy";

describe("isRetryable", () => {
  it.each([401, 403, 404, 409, 429, 500, 502, 503, 504])("retries HTTP %i", (status) => {
    expect(isRetryable(new KubeHttpError(status, undefined, ""))).toBe(true);
  });

  it.each([400, 405, 415, 422])("fails at once on HTTP %i", (status) => {
    expect(isRetryable(new KubeHttpError(status, undefined, ""))).toBe(false);
  });

  it.each(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "REQUEST_TIMEOUT"])("retries %s", (code) => {
    expect(isRetryable(new KubeTransportError(code, "x"))).toBe(true);
  });

  it.each(["UNABLE_TO_VERIFY_LEAF_SIGNATURE", "ERR_TLS_CERT_ALTNAME_INVALID", "INVALID_JSON", "UNKNOWN"])("fails at once on %s", (code) => {
    expect(isRetryable(new KubeTransportError(code, "x"))).toBe(false);
  });

  it("fails at once on anything else", () => {
    expect(isRetryable(new Error("Unable to find environment variable credentials"))).toBe(false);
  });
});

describe("backoffDelayMs", () => {
  it("doubles from the base up to the cap, scaled by the random draw", () => {
    const delays = [1, 2, 3, 4, 5, 6, 10].map((n) => backoffDelayMs(n, () => 0.5, DEFAULT_BACKOFF));
    expect(delays).toEqual([500, 1000, 2000, 4000, 7500, 7500, 7500]);
  });

  it("stays below the ceiling for the largest draw and reaches zero for the smallest (full jitter)", () => {
    expect(backoffDelayMs(3, () => 0.999999, DEFAULT_BACKOFF)).toBe(3999);
    expect(backoffDelayMs(3, () => 0, DEFAULT_BACKOFF)).toBe(0);
  });
});
