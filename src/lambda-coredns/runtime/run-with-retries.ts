/** Runs one API call until it succeeds, fails with a non-retryable error, or the next wait would pass the deadline. */
import { CorednsFixError } from "./coredns-fix-error";
import { type BackoffOptions, backoffDelayMs, isRetryable } from "./retry-policy";
import type { Logger } from "./structured-log";

/** Time and randomness, injected so tests control every wait. */
export interface Timing {
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Uniform in [0, 1). */
  random(): number;
}

export interface RetryContext {
  /** Epoch milliseconds after which no attempt starts. */
  readonly deadline: number;
  /** Upper bound of one attempt; shortened to what is left before the deadline. */
  readonly requestTimeoutMs: number;
  readonly backoff: BackoffOptions;
  readonly timing: Timing;
  readonly log: Logger;
}

export interface RetryResult<T> {
  readonly value: T;
  readonly attempts: number;
}

export async function runWithRetries<T>(step: string, context: RetryContext, attempt: (timeoutMs: number) => Promise<T>): Promise<RetryResult<T>> {
  const { timing } = context;
  let lastError = "none (the deadline had already passed)";
  let attempts = 0;
  while (context.deadline - timing.now() > 0) {
    attempts += 1;
    try {
      const value = await attempt(Math.min(context.requestTimeoutMs, context.deadline - timing.now()));
      return { value, attempts };
    } catch (error) {
      lastError = describeError(error);
      if (!isRetryable(error)) throw giveUp(step, attempts, "not retryable", lastError);
      const delayMs = backoffDelayMs(attempts, () => timing.random(), context.backoff);
      if (timing.now() + delayMs >= context.deadline) throw giveUp(step, attempts, "deadline reached", lastError);
      context.log({ level: "warn", step, message: "attempt failed, retrying", attempt: attempts, error: lastError, delayMs });
      await timing.sleep(delayMs);
    }
  }
  throw giveUp(step, attempts, "deadline reached", lastError);
}

function giveUp(step: string, attempts: number, why: string, lastError: string): CorednsFixError {
  return new CorednsFixError(`CoreDNS fix failed at step "${step}" after ${attempts} attempt${attempts === 1 ? "" : "s"} (${why}); last error: ${lastError}`);
}

function describeError(error: unknown): string {
  const message = (error as { readonly message?: unknown } | null | undefined)?.message;
  return typeof message === "string" ? message : String(error);
}
