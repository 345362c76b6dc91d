/**
 * A real HTTPS server on 127.0.0.1 playing the Kubernetes API server, with certificates issued at test
 * time by the openssl CLI, so the client's TLS verification is exercised for real.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { serveHttps } from "../../helpers/local-https";
import type { TestPki } from "../../helpers/test-pki";

export { generateTestPki, type TestPki } from "../../helpers/test-pki";

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly contentType: string | undefined;
  readonly authorization: string | undefined;
  /** Parsed JSON body, or undefined when there was none. */
  readonly body: unknown;
}

/** `body` is sent as JSON, `text` as is; `hang` accepts the request and never answers. */
export type ScriptedReply = { readonly status: number; readonly body: unknown } | { readonly status: number; readonly text: string } | "hang";

/** Answers from state instead of a script (see fake-coredns-cluster.ts). */
export type Responder = (request: RecordedRequest) => ScriptedReply;

export interface FakeKubeApi {
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Answers each request with the next scripted reply; once the script is used up, every further request gets
 * `fallback` (default: a 500 naming the request, so an unexpected call fails the test visibly). A responder
 * function answers every request instead.
 */
export async function startFakeKubeApi(pki: TestPki, script: readonly ScriptedReply[] | Responder, fallback?: ScriptedReply): Promise<FakeKubeApi> {
  const requests: RecordedRequest[] = [];
  const { url, close } = await serveHttps(pki, (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const request: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        contentType: req.headers["content-type"],
        authorization: req.headers.authorization,
        body: text === "" ? undefined : JSON.parse(text),
      };
      requests.push(request);
      const reply =
        typeof script === "function"
          ? script(request)
          : (script[requests.length - 1] ?? fallback ?? { status: 500, body: status(500, "InternalError", `unscripted ${req.method} ${req.url}`) });
      if (reply === "hang") return;
      res.writeHead(reply.status, { "Content-Type": "application/json" });
      res.end("text" in reply ? reply.text : JSON.stringify(reply.body));
    });
  });
  return { url, requests, close };
}

/** A Kubernetes Status object, as the API server returns with every error. */
export function status(code: number, reason: string, message: string): unknown {
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason, code };
}

/** The selector and pod labels of EKS's coredns Deployment. */
export const COREDNS_LABELS: Readonly<Record<string, string>> = { "eks.amazonaws.com/component": "coredns", "k8s-app": "kube-dns" };

export interface DeploymentFixture {
  readonly annotations?: Readonly<Record<string, string>>;
  /** spec.selector.matchLabels; defaults to COREDNS_LABELS. */
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly generation?: number;
  readonly replicas?: number;
  readonly observedGeneration?: number;
  readonly updatedReplicas?: number;
  readonly availableReplicas?: number;
  /** status.replicas: pods of old and new templates; defaults to spec.replicas. */
  readonly totalReplicas?: number;
}

/** The coredns Deployment as EKS creates it, trimmed to what the Lambda reads. */
export function corednsDeployment(fixture: DeploymentFixture = {}): unknown {
  return {
    kind: "Deployment",
    apiVersion: "apps/v1",
    metadata: { name: "coredns", namespace: "kube-system", generation: fixture.generation ?? 1 },
    spec: {
      replicas: fixture.replicas ?? 2,
      selector: { matchLabels: fixture.matchLabels ?? COREDNS_LABELS },
      template: {
        metadata: { labels: fixture.matchLabels ?? COREDNS_LABELS, annotations: fixture.annotations ?? {} },
        spec: { containers: [{ name: "coredns", image: "coredns:v1.11.4-eksbuild.2" }] },
      },
    },
    status: {
      observedGeneration: fixture.observedGeneration ?? fixture.generation ?? 1,
      replicas: fixture.totalReplicas ?? fixture.replicas ?? 2,
      updatedReplicas: fixture.updatedReplicas ?? 0,
      availableReplicas: fixture.availableReplicas ?? 0,
    },
  };
}

export interface PodFixture {
  readonly name: string;
  /** metadata.labels besides the Fargate one; defaults to COREDNS_LABELS. */
  readonly labels?: Readonly<Record<string, string>>;
  /** status.phase; defaults to Pending. */
  readonly phase?: string;
  /** spec.nodeName; absent while the pod is not scheduled. */
  readonly nodeName?: string;
  /** The eks.amazonaws.com/fargate-profile label that EKS's Fargate webhook sets. */
  readonly fargateProfile?: string;
  readonly terminating?: boolean;
}

/** A pod (coredns by default), trimmed to what the Lambda reads plus what EKS shows on a Fargate pod. */
export function corednsPod(fixture: PodFixture): unknown {
  const onFargate = fixture.fargateProfile !== undefined;
  return {
    metadata: {
      name: fixture.name,
      namespace: "kube-system",
      labels: { ...(fixture.labels ?? COREDNS_LABELS), ...(onFargate ? { "eks.amazonaws.com/fargate-profile": fixture.fargateProfile } : {}) },
      ...(fixture.terminating ? { deletionTimestamp: "2025-01-02T03:00:00Z" } : {}),
      ...(onFargate && fixture.nodeName !== undefined ? { annotations: { CapacityProvisioned: "0.25vCPU 0.5GB" } } : {}),
    },
    spec: {
      schedulerName: onFargate ? "fargate-scheduler" : "default-scheduler",
      ...(fixture.nodeName === undefined ? {} : { nodeName: fixture.nodeName }),
    },
    status: { phase: fixture.phase ?? "Pending" },
  };
}

export function podList(pods: readonly PodFixture[]): unknown {
  return { kind: "PodList", apiVersion: "v1", metadata: { resourceVersion: "1" }, items: pods.map(corednsPod) };
}
