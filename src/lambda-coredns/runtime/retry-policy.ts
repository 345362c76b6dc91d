/**
 * Which failures are worth another attempt, and how long to wait: capped exponential backoff with full
 * jitter, bounded by one deadline for the whole invocation.
 * @see https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/
 */
import { KubeHttpError, KubeTransportError, REQUEST_TIMEOUT_CODE } from "./kube-client";

export interface BackoffOptions {
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseDelayMs: 1_000, maxDelayMs: 15_000 };

/** Network failures expected while a new cluster endpoint, its DNS record or the Lambda's ENI settles. */
const RETRYABLE_TRANSPORT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "ESOCKETTIMEDOUT",
  REQUEST_TIMEOUT_CODE,
]);

/**
 * 401/403: a new access entry and its policy association take a while to reach the API server.
 * 404: the coredns Deployment is created by EKS shortly after the cluster, and may not exist yet.
 * 409/429/5xx: conflicts, throttling and an API server that is still scaling.
 */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([401, 403, 404, 409, 429]);

/** TLS verification failures, other 4xx and malformed answers are not transient: fail at once. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof KubeHttpError) return RETRYABLE_STATUSES.has(error.status) || error.status >= 500;
  if (error instanceof KubeTransportError) return RETRYABLE_TRANSPORT_CODES.has(error.code);
  return false;
}

/** Delay before attempt `failedAttempts + 1`: uniform in [0, min(max, base * 2^(failedAttempts - 1))). */
export function backoffDelayMs(failedAttempts: number, random: () => number, options: BackoffOptions): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (failedAttempts - 1));
  return Math.floor(random() * ceiling);
}
