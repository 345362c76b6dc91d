/**
 * A stateful stand-in for the part of an EKS cluster with no EC2 node groups that the CoreDNS fix touches,
 * served through startFakeKubeApi so that two invocations can run against the same cluster: what the first
 * one patched is what the second one reads.
 *
 * What it models, simplified:
 * - Admission: a pod is handed to Fargate (labelled with the profile, scheduled by fargate-scheduler) only
 *   when a profile exists at its creation and its template does not say compute-type ec2; otherwise it stays
 *   Pending on no node, since there is no EC2 node group. A pod never moves once created.
 * - The Deployment controller and Fargate advance one step each time the Deployment is read (the Lambda's
 *   polls are the clock): first a changed template is observed and every pod replaced at once, then the pods
 *   handed to Fargate run on a fargate-ip-* node of their own.
 * - A strategic-merge PATCH of pod-template annotations (null deletes a key) bumps the generation only when
 *   it changes the template, like the API server.
 * - kube-system also holds a kube-proxy pod on an EC2 node that Karpenter launched: listing pods without the
 *   coredns selector would see it.
 */
import {
  COREDNS_LABELS,
  corednsDeployment,
  corednsPod,
  type PodFixture,
  type RecordedRequest,
  type Responder,
  type ScriptedReply,
  status,
} from "./fake-kube-api";

const DEPLOYMENT_PATH = "/apis/apps/v1/namespaces/kube-system/deployments/coredns";
const PODS_PATH = "/api/v1/namespaces/kube-system/pods";
const COMPUTE_TYPE = "eks.amazonaws.com/compute-type";
const KUBE_PROXY: PodFixture = {
  name: "kube-proxy-7xk2p",
  labels: { "k8s-app": "kube-proxy" },
  phase: "Running",
  nodeName: "ip-10-0-3-7.eu-west-1.compute.internal",
};

interface ModelPod extends PodFixture {
  /** The Deployment generation whose template created it. */
  readonly template: number;
}

export interface FakeCorednsClusterOptions {
  /** The pod-template annotations EKS created coredns with. */
  readonly annotations: Readonly<Record<string, string>>;
  readonly replicas?: number;
}

export class FakeCorednsCluster {
  private annotations: Record<string, string>;
  private generation = 1;
  private observedGeneration = 1;
  private readonly replicas: number;
  private profile: string | undefined;
  private pods: ModelPod[];
  private serial = 0;
  private readonly faults: { readonly method: string; readonly pathname: string; readonly reply: ScriptedReply }[] = [];

  /** EKS creates coredns with the cluster, before any Fargate profile exists. */
  constructor(options: FakeCorednsClusterOptions) {
    this.annotations = { ...options.annotations };
    this.replicas = options.replicas ?? 2;
    this.pods = this.createPods();
  }

  createFargateProfile(name: string): void {
    this.profile = name;
  }

  /**
   * Deleting a profile deletes the pods that run with it; their ReplicaSet replaces them at once, while no
   * profile matches, so the replacements stay Pending even after the next profile exists.
   */
  deleteFargateProfile(): void {
    this.profile = undefined;
    this.pods = this.pods.map((pod) => (pod.fargateProfile === undefined ? pod : this.createPod(pod.template)));
  }

  /** The next requests matching method and path (without query) get these replies instead of the model's. */
  failNext(method: string, pathname: string, ...replies: readonly ScriptedReply[]): void {
    for (const reply of replies) this.faults.push({ method, pathname, reply });
  }

  get templateAnnotations(): Readonly<Record<string, string>> {
    return { ...this.annotations };
  }

  get corednsPods(): readonly PodFixture[] {
    return this.pods.map(({ template: _, ...pod }) => pod);
  }

  readonly respond: Responder = (request) => {
    const url = new URL(request.path, "https://fake");
    const fault = this.faults.findIndex((f) => f.method === request.method && f.pathname === url.pathname);
    if (fault >= 0) return this.faults.splice(fault, 1)[0].reply;
    if (url.pathname === DEPLOYMENT_PATH && request.method === "GET") {
      this.advance();
      return { status: 200, body: this.deployment() };
    }
    if (url.pathname === DEPLOYMENT_PATH && request.method === "PATCH") return this.patch(request);
    if (url.pathname === PODS_PATH && request.method === "GET") return this.listPods(url.searchParams.get("labelSelector"));
    return { status: 404, body: status(404, "NotFound", `the fake has no ${request.method} ${request.path}`) };
  };

  private advance(): void {
    if (this.observedGeneration < this.generation) {
      this.observedGeneration = this.generation;
      this.pods = this.createPods();
      return;
    }
    this.pods = this.pods.map((pod) =>
      pod.fargateProfile !== undefined && pod.nodeName === undefined
        ? { ...pod, phase: "Running", nodeName: `fargate-ip-10-0-1-${this.nextSerial()}.eu-west-1.compute.internal` }
        : pod,
    );
  }

  private deployment(): unknown {
    return corednsDeployment({
      annotations: this.annotations,
      generation: this.generation,
      observedGeneration: this.observedGeneration,
      replicas: this.replicas,
      updatedReplicas: this.pods.filter((pod) => pod.template === this.generation).length,
      availableReplicas: this.pods.filter((pod) => pod.phase === "Running").length,
      totalReplicas: this.pods.length,
    });
  }

  private patch(request: RecordedRequest): ScriptedReply {
    if (request.contentType !== "application/strategic-merge-patch+json") {
      return { status: 415, body: status(415, "UnsupportedMediaType", `the fake takes only strategic-merge patches, got ${request.contentType}`) };
    }
    const annotations = onlyPodTemplateAnnotations(request.body);
    if (annotations === undefined) {
      return { status: 422, body: status(422, "Invalid", `the fake patches only pod-template annotations, got ${JSON.stringify(request.body)}`) };
    }
    const next = { ...this.annotations };
    for (const [key, value] of Object.entries(annotations)) {
      if (value === null) delete next[key];
      else next[key] = value;
    }
    if (JSON.stringify(next) !== JSON.stringify(this.annotations)) {
      this.annotations = next;
      this.generation += 1;
    }
    return { status: 200, body: this.deployment() };
  }

  private listPods(selector: string | null): ScriptedReply {
    const wanted = (selector ?? "").split(",").filter((term) => term !== "");
    if (!wanted.every((term) => /^[^=!,]+=[^=!,]*$/.test(term))) {
      return { status: 400, body: status(400, "BadRequest", `the fake understands only key=value selectors, got ${selector}`) };
    }
    const all: readonly PodFixture[] = [KUBE_PROXY, ...this.corednsPods];
    const matching = all.filter((pod) =>
      wanted.every((term) => {
        const [key, value] = term.split("=");
        return (pod.labels ?? COREDNS_LABELS)[key] === value;
      }),
    );
    return { status: 200, body: { kind: "PodList", apiVersion: "v1", metadata: { resourceVersion: "1" }, items: matching.map(corednsPod) } };
  }

  private createPods(): ModelPod[] {
    return Array.from({ length: this.replicas }, () => this.createPod(this.generation));
  }

  private createPod(template: number): ModelPod {
    const toFargate = this.profile !== undefined && this.annotations[COMPUTE_TYPE] !== "ec2";
    return { name: `coredns-g${template}-${this.nextSerial()}`, template, ...(toFargate ? { fargateProfile: this.profile } : {}) };
  }

  private nextSerial(): number {
    this.serial += 1;
    return this.serial;
  }
}

/** The annotations of a patch shaped exactly {spec: {template: {metadata: {annotations}}}}, or undefined. */
function onlyPodTemplateAnnotations(body: unknown): Readonly<Record<string, string | null>> | undefined {
  const only = (value: unknown, key: string): unknown => {
    const record = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    return record !== undefined && Object.keys(record).length === 1 ? record[key] : undefined;
  };
  const annotations = only(only(only(only(body, "spec"), "template"), "metadata"), "annotations");
  if (typeof annotations !== "object" || annotations === null || Array.isArray(annotations)) return undefined;
  const entries = Object.entries(annotations);
  return entries.every(([, value]) => value === null || typeof value === "string") ? (annotations as Record<string, string | null>) : undefined;
}
