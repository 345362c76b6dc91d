/**
 * Lambda entry point: makes CoreDNS run on Fargate on an EKS cluster with no EC2 nodes by removing the
 * `eks.amazonaws.com/compute-type` pod-template annotation, restarting the Deployment and waiting for one
 * available replica; when CoreDNS already runs on Fargate it changes nothing and says so. It authenticates as its own role (an EKS access entry), never with a token passed in
 * the event, since `aws_lambda_invocation` stores its input in Terraform state.
 *
 * Environment: CLUSTER_NAME, CLUSTER_ENDPOINT (https URL), CLUSTER_CA_DATA (base64 PEM), AWS_REGION, and the
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN the Lambda runtime provides.
 */
import { fromEnv } from "@aws-sdk/credential-provider-env";
import { CorednsFixError } from "./coredns-fix-error";
import { type CredentialsProvider, mintEksToken } from "./eks-token";
import { type FixCorednsResult, fixCoredns } from "./fix-coredns";
import { type Environment, readHandlerConfig } from "./handler-config";
import { createKubeClient } from "./kube-client";
import { type BackoffOptions, DEFAULT_BACKOFF } from "./retry-policy";
import type { Timing } from "./run-with-retries";
import { consoleJsonLogger, type Logger } from "./structured-log";

export interface LambdaContext {
  getRemainingTimeInMillis(): number;
}

export interface HandlerDependencies {
  readonly env: Environment;
  readonly credentials: CredentialsProvider;
  readonly timing: Timing;
  readonly log: Logger;
  /** Kept free before the Lambda timeout so the handler throws its own error instead of being killed silently. */
  readonly safetyMarginMs: number;
  readonly requestTimeoutMs: number;
  readonly pollIntervalMs: number;
  readonly backoff: BackoffOptions;
}

export function defaultDependencies(): HandlerDependencies {
  return {
    env: process.env,
    credentials: fromEnv(),
    timing: {
      now: () => Date.now(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      random: () => Math.random(),
    },
    log: consoleJsonLogger,
    safetyMarginMs: 10_000,
    requestTimeoutMs: 10_000,
    pollIntervalMs: 5_000,
    backoff: DEFAULT_BACKOFF,
  };
}

export async function handler(event: unknown, context: LambdaContext): Promise<FixCorednsResult> {
  return runHandler(event, context, defaultDependencies());
}

export async function runHandler(event: unknown, context: LambdaContext, deps: HandlerDependencies): Promise<FixCorednsResult> {
  const { log, timing } = deps;
  // Only the keys: the event is expected to hold non-secret ids, but nothing forces a caller to comply.
  log({ level: "info", step: "start", message: "invoked", eventKeys: eventKeys(event) });

  const config = readHandlerConfig(deps.env);
  const remainingMs = context.getRemainingTimeInMillis();
  const budgetMs = remainingMs - deps.safetyMarginMs;
  if (budgetMs <= 0) {
    throw new CorednsFixError(`CoreDNS fix Lambda timeout too short: ${remainingMs} ms remaining, ${deps.safetyMarginMs} ms kept as safety margin`);
  }
  log({
    level: "info",
    step: "config",
    message: "configuration read",
    clusterName: config.clusterName,
    endpointHost: config.endpoint.host,
    region: config.region,
    budgetMs,
  });

  try {
    const result = await fixCoredns({
      kube: createKubeClient({ endpoint: config.endpoint, caPem: config.caPem }),
      mintToken: async () =>
        mintEksToken({
          clusterName: config.clusterName,
          region: config.region,
          credentials: await deps.credentials(),
          signingDate: new Date(timing.now()),
        }),
      deadline: timing.now() + budgetMs,
      requestTimeoutMs: deps.requestTimeoutMs,
      pollIntervalMs: deps.pollIntervalMs,
      backoff: deps.backoff,
      timing,
      log,
    });
    log({ level: "info", step: "done", message: result.action === "none" ? "coredns already on Fargate" : "coredns fixed", ...result });
    return result;
  } catch (error) {
    log({ level: "error", step: "failed", message: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}

function eventKeys(event: unknown): readonly string[] {
  return typeof event === "object" && event !== null && !Array.isArray(event) ? Object.keys(event) : [];
}
