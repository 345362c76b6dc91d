import { type HandlerDependencies, runHandler } from "../../../src/lambda-coredns/runtime/handler";
import type { LogEntry } from "../../../src/lambda-coredns/runtime/structured-log";
import { FakeCorednsCluster } from "./fake-coredns-cluster";
import {
  corednsDeployment,
  type FakeKubeApi,
  generateTestPki,
  podList,
  type RecordedRequest,
  type ScriptedReply,
  startFakeKubeApi,
  status,
  type TestPki,
} from "./fake-kube-api";

const PATH = "/apis/apps/v1/namespaces/kube-system/deployments/coredns";
const START = Date.UTC(2025, 0, 2, 3, 4, 5);
const RESTARTED_AT = "2025-01-02T03:04:05.000Z";
const CREDENTIALS = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
  sessionToken: "FwoGZXIvYXdzEXAMPLESESSIONTOKEN",
};
/** 60 s left minus the 10 s safety margin: a 50 s budget on the fake clock. */
const CONTEXT = { getRemainingTimeInMillis: () => 60_000 };

const EC2_DEPLOYMENT = corednsDeployment({ annotations: { "eks.amazonaws.com/compute-type": "ec2" }, generation: 1 });
const PATCHED = corednsDeployment({ generation: 2, observedGeneration: 1 });
const ROLLING = corednsDeployment({ generation: 2, observedGeneration: 2, updatedReplicas: 1, availableReplicas: 0 });
const ROLLED_OUT = corednsDeployment({ generation: 2, observedGeneration: 2, updatedReplicas: 2, availableReplicas: 1 });
const OK = (body: unknown): ScriptedReply => ({ status: 200, body });
/** Annotation gone, every replica available on the latest template. */
const FIXED = corednsDeployment({ generation: 2, observedGeneration: 2, updatedReplicas: 2, availableReplicas: 2 });

/** Created with the ec2 annotation or before any profile: Pending on no node, and never moving. */
const PENDING_PODS = podList([{ name: "coredns-787cb67946-2xq5v" }, { name: "coredns-787cb67946-q8b4t" }]);
const FARGATE_PODS = podList([
  { name: "coredns-5c9d8b7f6-h4jzk", phase: "Running", nodeName: "fargate-ip-10-0-1-5.eu-west-1.compute.internal", fargateProfile: "kube-system" },
  { name: "coredns-5c9d8b7f6-wn7tq", phase: "Running", nodeName: "fargate-ip-10-0-2-9.eu-west-1.compute.internal", fargateProfile: "kube-system" },
]);

const GET: Partial<RecordedRequest> = { method: "GET", path: PATH, contentType: undefined, body: undefined };
/** The selector of EKS's coredns Deployment, keys sorted: component=coredns and k8s-app=kube-dns. */
const PODS_PATH = "/api/v1/namespaces/kube-system/pods?labelSelector=eks.amazonaws.com%2Fcomponent%3Dcoredns%2Ck8s-app%3Dkube-dns";
const LIST: Partial<RecordedRequest> = { method: "GET", path: PODS_PATH, contentType: undefined, body: undefined };
const EC2_REASON = "the pod template has eks.amazonaws.com/compute-type=ec2";
const PENDING_REASON =
  "the pod template has no eks.amazonaws.com/compute-type annotation, but 2 of 2 coredns pods not running on Fargate: " +
  "coredns-787cb67946-2xq5v Pending on no node, no Fargate profile; coredns-787cb67946-q8b4t Pending on no node, no Fargate profile";
const DONE_REASON = "the pod template has no eks.amazonaws.com/compute-type annotation, all 2 coredns pods run on Fargate and 2 of 2 replicas are available";
const patchRequest = (annotations: Record<string, string | null>): Partial<RecordedRequest> => ({
  method: "PATCH",
  path: PATH,
  contentType: "application/strategic-merge-patch+json",
  body: { spec: { template: { metadata: { annotations } } } },
});
const RESTART_ONLY = patchRequest({ "kubectl.kubernetes.io/restartedAt": RESTARTED_AT });
/** restartedAt is the clock after the reads, so it moves with the waits before the patch. */
const removeAndRestart = (restartedAt: string): Partial<RecordedRequest> =>
  patchRequest({ "eks.amazonaws.com/compute-type": null, "kubectl.kubernetes.io/restartedAt": restartedAt });
const REMOVE_AND_RESTART = removeAndRestart(RESTARTED_AT);

describe("runHandler against a fake Kubernetes API over real TLS", () => {
  let pki: TestPki;
  let api: FakeKubeApi | undefined;
  let logs: LogEntry[];
  let sleeps: number[];

  beforeAll(() => {
    pki = generateTestPki();
  });
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  interface InvokeOptions {
    readonly caPem?: string;
    readonly requestTimeoutMs?: number;
    readonly remainingMs?: number;
    /** The fake clock at the start of the invocation. */
    readonly startAt?: number;
  }

  async function run(script: readonly ScriptedReply[], options: InvokeOptions & { readonly fallback?: ScriptedReply } = {}): Promise<unknown> {
    api = await startFakeKubeApi(pki, script, options.fallback);
    return invoke(options);
  }

  /** One invocation against the server already started: logs and sleeps start afresh, requests accumulate. */
  async function invoke(options: InvokeOptions = {}): Promise<unknown> {
    if (api === undefined) throw new Error("no fake API server started");
    logs = [];
    sleeps = [];
    let now = options.startAt ?? START;
    const deps: HandlerDependencies = {
      env: {
        CLUSTER_NAME: "autonomous-eks",
        CLUSTER_ENDPOINT: api.url,
        CLUSTER_CA_DATA: Buffer.from(options.caPem ?? pki.caPem).toString("base64"),
        AWS_REGION: "eu-west-1",
      },
      credentials: async () => CREDENTIALS,
      timing: {
        now: () => now,
        sleep: async (ms) => {
          sleeps.push(ms);
          now += ms;
        },
        random: () => 0.5,
      },
      log: (entry) => logs.push(entry),
      safetyMarginMs: 10_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 2_000,
      pollIntervalMs: 5_000,
      backoff: { baseDelayMs: 1_000, maxDelayMs: 15_000 },
    };
    const context = options.remainingMs === undefined ? CONTEXT : { getRemainingTimeInMillis: () => options.remainingMs ?? 0 };
    return runHandler({ clusterName: "autonomous-eks", stage: "bootstrap" }, context, deps);
  }

  /** Also checks that every request carried a token, and that no token or key leaked into `extra` or the logs. */
  function expectRequests(expected: readonly Partial<RecordedRequest>[], ...extra: unknown[]): void {
    const requests = api?.requests ?? [];
    expect(requests).toHaveLength(expected.length);
    requests.forEach((request, index) => {
      // objectContaining compares each listed field whole (a patch body with one extra key fails), where
      // toMatchObject would accept extra keys at every depth.
      expect(request).toEqual(expect.objectContaining(expected[index]));
    });
    const tokens = requests.map((request) => request.authorization ?? "");
    for (const authorization of tokens) expect(authorization).toMatch(/^Bearer k8s-aws-v1\.[A-Za-z0-9_-]+$/);
    const exposed = JSON.stringify([logs, ...extra.map((e) => (e instanceof Error ? e.message : e))]);
    const tokenParts = tokens.flatMap((authorization) => {
      const body = authorization.replace("Bearer k8s-aws-v1.", "");
      const url = new URL(Buffer.from(body, "base64url").toString("utf8"));
      return [body.slice(0, 24), body.slice(-24), url.searchParams.get("X-Amz-Signature") ?? "missing signature"];
    });
    for (const secret of [...tokenParts, CREDENTIALS.secretAccessKey, CREDENTIALS.sessionToken]) {
      expect(exposed).not.toContain(secret);
    }
    expect(exposed).not.toContain("k8s-aws-v1.");
    expect(exposed).not.toContain("Bearer");
    expect(exposed).not.toContain("BEGIN CERTIFICATE");
    expect(exposed).not.toContain(Buffer.from(pki.caPem).toString("base64").slice(0, 40));
  }

  async function failure(promise: Promise<unknown>): Promise<Error> {
    try {
      await promise;
    } catch (error) {
      return error as Error;
    }
    throw new Error("expected the handler to throw");
  }

  it("removes the annotation, restarts, and waits for the rollout", async () => {
    const result = await run([OK(EC2_DEPLOYMENT), OK(PENDING_PODS), OK(PATCHED), OK(PATCHED), OK(ROLLING), OK(ROLLED_OUT)]);
    expect(result).toEqual({
      action: "restart",
      reason: EC2_REASON,
      removedComputeType: true,
      previousComputeType: "ec2",
      restartedAt: RESTARTED_AT,
      availableReplicas: 1,
      attempts: 6,
    });
    expectRequests([GET, LIST, REMOVE_AND_RESTART, GET, GET, GET], result);
    expect(sleeps).toEqual([5_000, 5_000]);
    expect(logs.map((entry) => `${entry.level} ${entry.step}: ${entry.message}`)).toEqual([
      "info start: invoked",
      "info config: configuration read",
      "info read: read the coredns Deployment",
      "info pods: listed the coredns pods",
      "info decide: coredns needs a restart",
      "info patch: patched the coredns pod template",
      "info wait: coredns rollout in progress",
      "info wait: coredns rollout in progress",
      "info wait: coredns rollout finished",
      "info done: coredns fixed",
    ]);
    expect(logs[0]).toEqual({ level: "info", step: "start", message: "invoked", eventKeys: ["clusterName", "stage"] });
    expect(logs[3]).toEqual({
      level: "info",
      step: "pods",
      message: "listed the coredns pods",
      pods: ["coredns-787cb67946-2xq5v Pending on no node, no Fargate profile", "coredns-787cb67946-q8b4t Pending on no node, no Fargate profile"],
    });
  });

  it("only restarts a Deployment that no longer has the annotation but whose pods are not on Fargate", async () => {
    const result = await run([OK(corednsDeployment()), OK(PENDING_PODS), OK(PATCHED), OK(ROLLED_OUT)]);
    expect(result).toEqual({
      action: "restart",
      reason: PENDING_REASON,
      removedComputeType: false,
      previousComputeType: null,
      restartedAt: RESTARTED_AT,
      availableReplicas: 1,
      attempts: 4,
    });
    expectRequests([GET, LIST, RESTART_ONLY, GET], result);
  });

  it("does nothing when the annotation is gone, the pods run on Fargate and the rollout is complete", async () => {
    const result = await run([OK(FIXED), OK(FARGATE_PODS)]);
    expect(result).toEqual({ action: "none", reason: DONE_REASON, availableReplicas: 2, attempts: 2 });
    expectRequests([GET, LIST], result);
    expect(sleeps).toEqual([]);
    expect(logs.slice(2)).toEqual([
      { level: "info", step: "read", message: "read the coredns Deployment", computeType: null },
      {
        level: "info",
        step: "pods",
        message: "listed the coredns pods",
        pods: [
          "coredns-5c9d8b7f6-h4jzk Running on fargate-ip-10-0-1-5.eu-west-1.compute.internal, Fargate profile kube-system",
          "coredns-5c9d8b7f6-wn7tq Running on fargate-ip-10-0-2-9.eu-west-1.compute.internal, Fargate profile kube-system",
        ],
      },
      { level: "info", step: "decide", message: "coredns already runs on Fargate, nothing to do", reason: DONE_REASON },
      { level: "info", step: "done", message: "coredns already on Fargate", action: "none", reason: DONE_REASON, availableReplicas: 2, attempts: 2 },
    ]);
  });

  it("restarts pods that run on Fargate while their rollout is incomplete, without touching the annotation", async () => {
    const halfway = corednsDeployment({ generation: 2, observedGeneration: 2, updatedReplicas: 2, availableReplicas: 1 });
    const result = await run([OK(halfway), OK(FARGATE_PODS), OK(PATCHED), OK(ROLLED_OUT)]);
    expect(result).toMatchObject({
      action: "restart",
      reason:
        "the pod template has no eks.amazonaws.com/compute-type annotation, but the rollout is not complete: " +
        "availableReplicas=1 updatedReplicas=2 replicas=2 observedGeneration=2 generation=2 totalReplicas=2",
      removedComputeType: false,
    });
    expectRequests([GET, LIST, RESTART_ONLY, GET], result);
  });

  it("removes the annotation even when the pods already run on Fargate", async () => {
    const result = await run([
      OK(corednsDeployment({ annotations: { "eks.amazonaws.com/compute-type": "fargate" } })),
      OK(FARGATE_PODS),
      OK(PATCHED),
      OK(ROLLED_OUT),
    ]);
    expect(result).toMatchObject({ action: "restart", reason: "the pod template has eks.amazonaws.com/compute-type=fargate", previousComputeType: "fargate" });
    expectRequests([GET, LIST, REMOVE_AND_RESTART, GET], result);
  });

  it("lists the pods by the Deployment's own selector", async () => {
    const custom = corednsDeployment({ matchLabels: { "k8s-app": "coredns" }, generation: 2, updatedReplicas: 2, availableReplicas: 2 });
    const result = await run([OK(custom), OK(FARGATE_PODS)]);
    expect(result).toEqual({ action: "none", reason: DONE_REASON, availableReplicas: 2, attempts: 2 });
    expectRequests([GET, { method: "GET", path: "/api/v1/namespaces/kube-system/pods?labelSelector=k8s-app%3Dcoredns" }], result);
  });

  it("keeps the other pod-template annotations out of the patch", async () => {
    await run([
      OK(corednsDeployment({ annotations: { "eks.amazonaws.com/compute-type": "ec2", "prometheus.io/scrape": "true" } })),
      OK(PENDING_PODS),
      OK(PATCHED),
      OK(ROLLED_OUT),
    ]);
    expectRequests([GET, LIST, REMOVE_AND_RESTART, GET]);
  });

  it("waits for a Deployment that does not exist yet (404)", async () => {
    const notFound: ScriptedReply = { status: 404, body: status(404, "NotFound", 'deployments.apps "coredns" not found') };
    const result = await run([notFound, notFound, OK(EC2_DEPLOYMENT), OK(PENDING_PODS), OK(PATCHED), OK(ROLLED_OUT)]);
    expect(result).toMatchObject({ removedComputeType: true, attempts: 6 });
    expectRequests([GET, GET, GET, LIST, removeAndRestart("2025-01-02T03:04:06.500Z"), GET], result);
    expect(sleeps).toEqual([500, 1_000]);
    expect(logs.filter((entry) => entry.level === "warn")).toEqual([
      {
        level: "warn",
        step: "read",
        message: "attempt failed, retrying",
        attempt: 1,
        error: 'HTTP 404 NotFound: deployments.apps "coredns" not found',
        delayMs: 500,
      },
      {
        level: "warn",
        step: "read",
        message: "attempt failed, retrying",
        attempt: 2,
        error: 'HTTP 404 NotFound: deployments.apps "coredns" not found',
        delayMs: 1_000,
      },
    ]);
  });

  it("rides out a burst of 503s on the patch", async () => {
    const unavailable: ScriptedReply = { status: 503, body: status(503, "ServiceUnavailable", "etcd is unavailable") };
    const result = await run([OK(EC2_DEPLOYMENT), OK(PENDING_PODS), unavailable, unavailable, unavailable, OK(PATCHED), OK(ROLLED_OUT)]);
    expect(result).toMatchObject({ removedComputeType: true, attempts: 7 });
    expectRequests([GET, LIST, REMOVE_AND_RESTART, REMOVE_AND_RESTART, REMOVE_AND_RESTART, REMOVE_AND_RESTART, GET], result);
    expect(sleeps).toEqual([500, 1_000, 2_000]);
  });

  it("rides out a burst of 503s on the pod list, and patches with the clock after it", async () => {
    const unavailable: ScriptedReply = { status: 503, body: status(503, "ServiceUnavailable", "etcd is unavailable") };
    const result = await run([OK(EC2_DEPLOYMENT), unavailable, unavailable, unavailable, OK(PENDING_PODS), OK(PATCHED), OK(ROLLED_OUT)]);
    expect(result).toMatchObject({ action: "restart", restartedAt: "2025-01-02T03:04:08.500Z", attempts: 7 });
    expectRequests([GET, LIST, LIST, LIST, LIST, removeAndRestart("2025-01-02T03:04:08.500Z"), GET], result);
    expect(sleeps).toEqual([500, 1_000, 2_000]);
    expect(logs.filter((entry) => entry.level === "warn").map((entry) => `${entry.step} ${entry.attempt}: ${entry.error}`)).toEqual([
      "pods 1: HTTP 503 ServiceUnavailable: etcd is unavailable",
      "pods 2: HTTP 503 ServiceUnavailable: etcd is unavailable",
      "pods 3: HTTP 503 ServiceUnavailable: etcd is unavailable",
    ]);
  });

  it("throws, without patching, when the pod list stays unavailable past the deadline", async () => {
    const unavailable: ScriptedReply = { status: 503, body: status(503, "ServiceUnavailable", "etcd is unavailable") };
    const error = await failure(run([OK(EC2_DEPLOYMENT)], { fallback: unavailable }));
    expect(error.message).toBe(
      'CoreDNS fix failed at step "pods" after 10 attempts (deadline reached); last error: HTTP 503 ServiceUnavailable: etcd is unavailable',
    );
    expectRequests([GET, ...Array(10).fill(LIST)], error);
  });

  it("fails at once, without patching, when the pod list answer is not a PodList", async () => {
    const error = await failure(run([OK(EC2_DEPLOYMENT), OK(EC2_DEPLOYMENT)]));
    expect(error.message).toBe('CoreDNS fix failed at step "pods" after 1 attempt (not retryable); last error: expected a PodList, got kind Deployment');
    expectRequests([GET, LIST], error);
    expect(sleeps).toEqual([]);
  });

  it("retries a 401 while the access entry propagates", async () => {
    const result = await run([
      { status: 401, body: status(401, "Unauthorized", "Unauthorized") },
      OK(EC2_DEPLOYMENT),
      OK(PENDING_PODS),
      OK(PATCHED),
      OK(ROLLED_OUT),
    ]);
    expect(result).toMatchObject({ removedComputeType: true, restartedAt: "2025-01-02T03:04:05.500Z", attempts: 5 });
    expectRequests([GET, GET, LIST, removeAndRestart("2025-01-02T03:04:05.500Z"), GET], result);
  });

  it("times out a request that hangs and retries it", async () => {
    const result = await run(["hang", OK(EC2_DEPLOYMENT), OK(PENDING_PODS), OK(PATCHED), OK(ROLLED_OUT)], { requestTimeoutMs: 200 });
    expect(result).toMatchObject({ removedComputeType: true, restartedAt: "2025-01-02T03:04:05.500Z", attempts: 5 });
    expectRequests([GET, GET, LIST, removeAndRestart("2025-01-02T03:04:05.500Z"), GET], result);
    expect(logs.find((entry) => entry.level === "warn")?.error).toBe("REQUEST_TIMEOUT: no complete response within 200 ms");
  });

  it("throws when requests keep hanging until the deadline", async () => {
    // 12 s left: a 2 s budget, so the third 200 ms timeout is followed by a wait that would pass it.
    const error = await failure(run([], { fallback: "hang", requestTimeoutMs: 200, remainingMs: 12_000 }));
    expect(error.message).toBe(
      'CoreDNS fix failed at step "read" after 3 attempts (deadline reached); last error: REQUEST_TIMEOUT: no complete response within 200 ms',
    );
    expectRequests([GET, GET, GET], error);
  });

  it("throws with the step, the attempts and the last status when the API stays unavailable past the deadline", async () => {
    const error = await failure(run([], { fallback: { status: 503, body: status(503, "ServiceUnavailable", "etcd is unavailable") } }));
    expect(error.name).toBe("CorednsFixError");
    expect(error.message).toBe(
      'CoreDNS fix failed at step "read" after 10 attempts (deadline reached); last error: HTTP 503 ServiceUnavailable: etcd is unavailable',
    );
    expect(sleeps).toEqual([500, 1_000, 2_000, 4_000, 7_500, 7_500, 7_500, 7_500, 7_500]);
    expectRequests(Array(10).fill(GET), error);
    expect(logs[logs.length - 1]).toEqual({ level: "error", step: "failed", message: error.message });
  });

  it("fails at once on a 422", async () => {
    const invalid: ScriptedReply = { status: 422, body: status(422, "Invalid", 'Deployment.apps "coredns" is invalid') };
    const error = await failure(run([OK(EC2_DEPLOYMENT), OK(PENDING_PODS), invalid]));
    expect(error.message).toBe(
      'CoreDNS fix failed at step "patch" after 1 attempt (not retryable); last error: HTTP 422 Invalid: Deployment.apps "coredns" is invalid',
    );
    expectRequests([GET, LIST, REMOVE_AND_RESTART], error);
    expect(sleeps).toEqual([]);
  });

  it("throws when the rollout does not finish before the deadline", async () => {
    const error = await failure(run([OK(EC2_DEPLOYMENT), OK(PENDING_PODS), OK(PATCHED)], { fallback: OK(ROLLING) }));
    expect(error.message).toBe(
      'CoreDNS fix failed at step "wait": the rollout did not finish before the deadline after 10 polls; ' +
        "last status: availableReplicas=0 updatedReplicas=1 replicas=2 observedGeneration=2 generation=2 totalReplicas=2",
    );
    expectRequests([GET, LIST, REMOVE_AND_RESTART, ...Array(10).fill(GET)], error);
  });

  it("refuses an API server whose certificate the cluster CA did not sign", async () => {
    const error = await failure(run([OK(EC2_DEPLOYMENT)], { caPem: pki.otherCaPem }));
    expect(error.message).toBe(
      'CoreDNS fix failed at step "read" after 1 attempt (not retryable); last error: UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate',
    );
    expect(api?.requests).toEqual([]);
  });

  it("wires real defaults in the exported handler: credentials from the environment, console logs", async () => {
    api = await startFakeKubeApi(pki, [OK(corednsDeployment()), OK(PENDING_PODS), OK(PATCHED), OK(ROLLED_OUT)]);
    logs = [];
    const saved = { ...process.env };
    Object.assign(process.env, {
      CLUSTER_NAME: "autonomous-eks",
      CLUSTER_ENDPOINT: api.url,
      CLUSTER_CA_DATA: Buffer.from(pki.caPem).toString("base64"),
      AWS_REGION: "eu-west-1",
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      AWS_SESSION_TOKEN: CREDENTIALS.sessionToken,
    });
    const consoleLog = jest.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      const { handler } = await import("../../../src/lambda-coredns/runtime/handler");
      const result = await handler({}, CONTEXT);
      expect(result).toMatchObject({ action: "restart", removedComputeType: false, previousComputeType: null, availableReplicas: 1, attempts: 4 });
      logs = consoleLog.mock.calls.map(([line]) => JSON.parse(String(line)) as LogEntry);
      expect(logs.map((entry) => entry.step)).toEqual(["start", "config", "read", "pods", "decide", "patch", "wait", "done"]);
      expectRequests([GET, LIST, patchRequest({ "kubectl.kubernetes.io/restartedAt": (result as { restartedAt: string }).restartedAt }), GET], result);
      const url = new URL(Buffer.from((api.requests[0].authorization ?? "").replace("Bearer k8s-aws-v1.", ""), "base64url").toString());
      expect(url.searchParams.get("X-Amz-Credential")).toMatch(/^AKIDEXAMPLE\/\d{8}\/eu-west-1\/sts\/aws4_request$/);
      expect(url.searchParams.get("X-Amz-Security-Token")).toBe(CREDENTIALS.sessionToken);
    } finally {
      consoleLog.mockRestore();
      process.env = saved;
    }
  });

  describe("invoked again against the same cluster, whose state the fake keeps", () => {
    const PROFILE = "autonomous-eks-kube-system";
    const HOUR = 3_600_000;
    const line = (request: RecordedRequest): string => `${request.method} ${request.path}`;
    const lines = (entries: readonly LogEntry[]): string[] => entries.map((entry) => `${entry.level} ${entry.step}: ${entry.message}`);

    /** A cluster as EKS creates it (ec2 annotation, pods Pending), then the kube-system profile. */
    async function newCluster(): Promise<FakeCorednsCluster> {
      const cluster = new FakeCorednsCluster({ annotations: { "eks.amazonaws.com/compute-type": "ec2", "prometheus.io/scrape": "true" } });
      cluster.createFargateProfile(PROFILE);
      api = await startFakeKubeApi(pki, cluster.respond);
      return cluster;
    }

    it("patches and restarts on the first invocation, and sends no PATCH on the second", async () => {
      const cluster = await newCluster();

      const first = await invoke();
      const firstLogs = logs;
      expect(first).toEqual({
        action: "restart",
        reason: EC2_REASON,
        removedComputeType: true,
        previousComputeType: "ec2",
        restartedAt: RESTARTED_AT,
        availableReplicas: 2,
        attempts: 5,
      });
      expect(sleeps).toEqual([5_000]);
      expect(firstLogs.find((entry) => entry.step === "pods")?.pods).toEqual([
        "coredns-g1-1 Pending on no node, no Fargate profile",
        "coredns-g1-2 Pending on no node, no Fargate profile",
      ]);
      expect(cluster.templateAnnotations).toEqual({ "prometheus.io/scrape": "true", "kubectl.kubernetes.io/restartedAt": RESTARTED_AT });
      const fixedPods = [
        { name: "coredns-g2-3", fargateProfile: PROFILE, phase: "Running", nodeName: "fargate-ip-10-0-1-5.eu-west-1.compute.internal" },
        { name: "coredns-g2-4", fargateProfile: PROFILE, phase: "Running", nodeName: "fargate-ip-10-0-1-6.eu-west-1.compute.internal" },
      ];
      expect(cluster.corednsPods).toEqual(fixedPods);

      // The function's code changed, so Terraform invokes it again an hour later.
      const second = await invoke({ startAt: START + HOUR });
      expect(second).toEqual({ action: "none", reason: DONE_REASON, availableReplicas: 2, attempts: 2 });
      expect(lines(logs)).toEqual([
        "info start: invoked",
        "info config: configuration read",
        "info read: read the coredns Deployment",
        "info pods: listed the coredns pods",
        "info decide: coredns already runs on Fargate, nothing to do",
        "info done: coredns already on Fargate",
      ]);
      expect(sleeps).toEqual([]);

      expect((api?.requests ?? []).map(line)).toEqual([
        `GET ${PATH}`,
        `GET ${PODS_PATH}`,
        `PATCH ${PATH}`,
        `GET ${PATH}`,
        `GET ${PATH}`,
        // Second invocation: two reads, no write.
        `GET ${PATH}`,
        `GET ${PODS_PATH}`,
      ]);
      expectRequests([GET, LIST, REMOVE_AND_RESTART, GET, GET, GET, LIST], first, second, firstLogs);
      expect(cluster.templateAnnotations).toEqual({ "prometheus.io/scrape": "true", "kubectl.kubernetes.io/restartedAt": RESTARTED_AT });
      expect(cluster.corednsPods).toEqual(fixedPods);
    });

    it("after the Fargate profile is replaced, restarts without touching the annotation, and only once", async () => {
      const cluster = await newCluster();
      await invoke();
      cluster.deleteFargateProfile();
      cluster.createFargateProfile(`${PROFILE}-v2`);
      const requestsBefore = api?.requests.length ?? 0;

      const restartedAt = "2025-01-02T04:04:05.000Z";
      const afterReplacement = await invoke({ startAt: START + HOUR });
      expect(afterReplacement).toEqual({
        action: "restart",
        reason:
          "the pod template has no eks.amazonaws.com/compute-type annotation, but 2 of 2 coredns pods not running on Fargate: " +
          "coredns-g2-7 Pending on no node, no Fargate profile; coredns-g2-8 Pending on no node, no Fargate profile",
        removedComputeType: false,
        previousComputeType: null,
        restartedAt,
        availableReplicas: 2,
        attempts: 5,
      });
      expect(cluster.corednsPods).toEqual([
        { name: "coredns-g3-9", fargateProfile: `${PROFILE}-v2`, phase: "Running", nodeName: "fargate-ip-10-0-1-11.eu-west-1.compute.internal" },
        { name: "coredns-g3-10", fargateProfile: `${PROFILE}-v2`, phase: "Running", nodeName: "fargate-ip-10-0-1-12.eu-west-1.compute.internal" },
      ]);

      const again = await invoke({ startAt: START + 2 * HOUR });
      expect(again).toEqual({ action: "none", reason: DONE_REASON, availableReplicas: 2, attempts: 2 });
      expect((api?.requests ?? []).slice(requestsBefore).map(line)).toEqual([
        `GET ${PATH}`,
        `GET ${PODS_PATH}`,
        `PATCH ${PATH}`,
        `GET ${PATH}`,
        `GET ${PATH}`,
        `GET ${PATH}`,
        `GET ${PODS_PATH}`,
      ]);
      expect(api?.requests[requestsBefore + 2]).toEqual(expect.objectContaining(patchRequest({ "kubectl.kubernetes.io/restartedAt": restartedAt })));
      expect(cluster.templateAnnotations).toEqual({ "prometheus.io/scrape": "true", "kubectl.kubernetes.io/restartedAt": restartedAt });
    });

    it("rides out a burst of 503s on the pod list of the second invocation, and still sends no PATCH", async () => {
      const cluster = await newCluster();
      await invoke();
      const unavailable: ScriptedReply = { status: 503, body: status(503, "ServiceUnavailable", "etcd is unavailable") };
      cluster.failNext("GET", "/api/v1/namespaces/kube-system/pods", unavailable, unavailable);

      const second = await invoke({ startAt: START + HOUR });
      expect(second).toEqual({ action: "none", reason: DONE_REASON, availableReplicas: 2, attempts: 4 });
      expect(sleeps).toEqual([500, 1_000]);
      expect((api?.requests ?? []).slice(5).map(line)).toEqual([`GET ${PATH}`, `GET ${PODS_PATH}`, `GET ${PODS_PATH}`, `GET ${PODS_PATH}`]);
    });
  });

  it("refuses to start when the Lambda timeout leaves nothing after the safety margin", async () => {
    const error = await failure(run([], { remainingMs: 9_000 }));
    expect(error.message).toBe("CoreDNS fix Lambda timeout too short: 9000 ms remaining, 10000 ms kept as safety margin");
    expect(api?.requests).toEqual([]);
  });
});

describe("handler", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it("reads its configuration from the environment and names what is missing", async () => {
    const { handler } = await import("../../../src/lambda-coredns/runtime/handler");
    process.env = { ...saved, CLUSTER_NAME: "autonomous-eks", AWS_REGION: "eu-west-1" };
    delete process.env.CLUSTER_ENDPOINT;
    delete process.env.CLUSTER_CA_DATA;
    const log = jest.spyOn(console, "log").mockImplementation(() => undefined);
    await expect(handler({}, CONTEXT)).rejects.toThrow("CoreDNS fix Lambda misconfigured: CLUSTER_ENDPOINT is not set; CLUSTER_CA_DATA is not set");
    expect(log.mock.calls).toEqual([['{"level":"info","step":"start","message":"invoked","eventKeys":[]}']]);
    log.mockRestore();
  });
});
