import * as fs from "node:fs";
import * as path from "node:path";
import { resolveKubeTarget } from "../../src/cluster-state/kube-target";
import { ClusterReadError } from "../../src/cluster-state/kubectl-proxy";
import { readLiveCluster } from "../../src/cluster-state/read-live-cluster";
import { type FakeClusterApi, type FakeClusterApiOptions, startFakeClusterApi, writeKubeconfig } from "../helpers/fake-cluster-api";
import { describeWithKubectl } from "../helpers/kubectl-cli";
import { testFolder } from "../helpers/test-folder";
import { generateTestPki } from "../helpers/test-pki";

// The real kubectl on PATH, reading a real HTTPS stand-in of the Kubernetes API through `kubectl proxy`.

const pki = generateTestPki();

const pod = (i: number) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: {
    name: `web-${i}`,
    namespace: "shop",
    labels: { app: "web" },
    annotations: { "kubectl.kubernetes.io/last-applied-configuration": "x".repeat(2000), "karpenter.sh/do-not-disrupt": "true" },
    managedFields: [{ manager: "kubectl" }],
    ownerReferences: [{ apiVersion: "apps/v1", kind: "ReplicaSet", name: "web-5d8f", uid: "u", controller: true }],
  },
  spec: {
    nodeName: "node-1",
    containers: [{ name: "web", image: "nginx:1.27", env: [{ name: "SECRET", value: "hunter2" }], resources: { requests: { cpu: "250m", memory: "256Mi" } } }],
  },
  status: { phase: "Running", podIP: "10.0.0.1", containerStatuses: [{ name: "web" }] },
});

const PODS = Array.from({ length: 1201 }, (_, i) => pod(i));
const NODES = [
  { metadata: { name: "node-1", labels: { "node.kubernetes.io/instance-type": "m5.large" } }, status: { allocatable: { cpu: "1930m" }, images: ["big"] } },
];

function lists(extra: Record<string, readonly unknown[]> = {}): Record<string, readonly unknown[]> {
  return { "/api/v1/nodes": NODES, "/api/v1/pods": PODS, "/apis/policy/v1/poddisruptionbudgets": [], "/apis/apps/v1/daemonsets": [], ...extra };
}

async function withApi<T>(
  options: Omit<FakeClusterApiOptions, "pki">,
  auth: { token: string } | { execToken: string },
  work: (api: FakeClusterApi, kubeconfig: string, folder: string) => Promise<T>,
): Promise<T> {
  const api = await startFakeClusterApi({ pki, ...options });
  const folder = testFolder("live-cluster");
  try {
    return await work(api, writeKubeconfig(folder, api, pki, auth), folder);
  } finally {
    await api.close();
  }
}

const read = async (kubeconfig: string, options: Parameters<typeof readLiveCluster>[1] = {}) =>
  readLiveCluster(await resolveKubeTarget({ kubeconfig }, process.env), { pageSize: 500, ...options });

async function failure(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ClusterReadError) return error.message;
    throw error;
  }
  throw new Error("expected a ClusterReadError");
}

describeWithKubectl("reading a running cluster through kubectl", () => {
  it("lists every kind page by page with a token, keeps only what the report reads, and sends nothing but GETs", async () => {
    await withApi({ lists: lists(), tokens: ["reader-token"] }, { token: "reader-token" }, async (api, kubeconfig) => {
      const seen: [string, number][] = [];
      const objects = await read(kubeconfig, { progress: (kind, count) => seen.push([kind, count]) });
      expect(objects.byKind.Pod).toHaveLength(1201);
      expect(objects.byKind.Node).toHaveLength(1);
      // Pages of 500: three for the pods.
      expect(api.requests.filter((r) => r.path.startsWith("/api/v1/pods")).map((r) => r.path.replace(/continue=[^&]+/, "continue=…"))).toEqual([
        "/api/v1/pods?limit=500",
        "/api/v1/pods?limit=500&continue=…",
        "/api/v1/pods?limit=500&continue=…",
      ]);
      expect(seen.filter(([kind]) => kind === "Pod").map(([, n]) => n)).toEqual([500, 1000, 1201]);
      expect(api.requests.every((r) => r.method === "GET")).toBe(true);
      expect(api.requests.every((r) => r.authorization === "Bearer reader-token")).toBe(true);
      // Cut to the report's fields: no environment, no managed fields, no status beyond the phase.
      expect(objects.byKind.Pod[0]).toEqual({
        apiVersion: "v1",
        kind: "Pod",
        metadata: {
          name: "web-0",
          namespace: "shop",
          labels: { app: "web" },
          annotations: { "karpenter.sh/do-not-disrupt": "true" },
          ownerReferences: [{ apiVersion: "apps/v1", kind: "ReplicaSet", name: "web-5d8f", controller: true }],
        },
        spec: { nodeName: "node-1", containers: [{ name: "web", image: "nginx:1.27", resources: { requests: { cpu: "250m", memory: "256Mi" } } }] },
        status: { phase: "Running" },
      });
      expect(objects.byKind.Node[0]).toEqual({ kind: "Node", metadata: NODES[0].metadata, status: { allocatable: { cpu: "1930m" } } });
      // Karpenter's CRDs are not installed here; volumes are not served: named, not fatal.
      expect(objects.unread.map((u) => `${u.kind}: ${u.reason}`)).toEqual([
        "NodePool: not installed (its CRD is not in the cluster)",
        "NodeClaim: not installed (its CRD is not in the cluster)",
        "EC2NodeClass: not installed (its CRD is not in the cluster)",
        "PersistentVolumeClaim: not served by this API server",
        "PersistentVolume: not served by this API server",
        "StorageClass: not served by this API server",
      ]);
      expect(objects.source).toBe(`the cluster at ${api.url} (context stand-in)`);
    });
  });

  it("authenticates with an exec plugin, which kubectl runs once as it starts, not once per request", async () => {
    await withApi({ lists: lists(), tokens: ["from-plugin"] }, { execToken: "from-plugin" }, async (api, kubeconfig, folder) => {
      const objects = await read(kubeconfig);
      expect(objects.byKind.Pod).toHaveLength(1201);
      expect(api.requests.every((r) => r.authorization === "Bearer from-plugin")).toBe(true);
      // kubectl proxy asks for a token for its own start (GET /version) and once for what it proxies.
      expect(api.requests.length).toBeGreaterThan(8);
      expect(fs.readFileSync(path.join(folder, "exec-runs"), "utf8").trim().split("\n")).toEqual(["run", "run"]);
    });
  });

  it("stops at credentials the API refuses (401), in one line", async () => {
    await withApi({ lists: lists(), tokens: ["right"] }, { token: "wrong" }, async (_api, kubeconfig) => {
      expect(await failure(() => read(kubeconfig))).toBe(
        "the API server refused the credentials (401 Unauthorized): Unauthorized; check the kubeconfig's user (aws sts get-caller-identity shows who an exec plugin such as aws eks get-token signs in as)",
      );
    });
  });

  it("stops when pods are forbidden, and goes on without a forbidden optional kind, naming it", async () => {
    await withApi({ lists: lists(), tokens: ["t"], forbidden: ["/api/v1/pods"] }, { token: "t" }, async (_api, kubeconfig) => {
      expect(await failure(() => read(kubeconfig))).toBe(
        'cannot list pods (403 Forbidden: pods is forbidden: User "reader" cannot list resource "pods" at the cluster scope); the report needs get and list on nodes and pods across the cluster: docs/operations.md, Measure the savings, lists the read-only ClusterRole to bind',
      );
    });
    await withApi({ lists: lists(), tokens: ["t"], forbidden: ["/apis/policy/v1/poddisruptionbudgets"] }, { token: "t" }, async (_api, kubeconfig) => {
      const objects = await read(kubeconfig);
      expect(objects.byKind.Pod).toHaveLength(1201);
      expect(objects.unread[3]).toEqual({
        kind: "PodDisruptionBudget",
        reason: 'forbidden (403: poddisruptionbudgets is forbidden: User "reader" cannot list resource "poddisruptionbudgets" at the cluster scope)',
      });
    });
  });

  it("reads a list again from the start when its continue token expires (410 Gone), and gives up the second time", async () => {
    await withApi({ lists: lists(), tokens: ["t"], expire: { "/api/v1/pods": "once" } }, { token: "t" }, async (api, kubeconfig) => {
      const objects = await read(kubeconfig);
      expect(objects.byKind.Pod.map((p) => (p.metadata as { name: string }).name)).toEqual(PODS.map((p) => p.metadata.name));
      expect(api.requests.filter((r) => r.path === "/api/v1/pods?limit=500")).toHaveLength(2);
    });
    await withApi({ lists: lists(), tokens: ["t"], expire: { "/api/v1/pods": "always" } }, { token: "t" }, async (_api, kubeconfig) => {
      expect(await failure(() => read(kubeconfig))).toBe(
        "the list /api/v1/pods changed faster than it could be read (410 Gone twice: its continue token expired); try again, or save a state with kubectl get and pass --state",
      );
    });
  });

  it("stops at an API that does not answer, naming the request", async () => {
    await withApi({ lists: lists(), tokens: ["t"], hang: ["/api/v1/pods"] }, { token: "t" }, async (_api, kubeconfig) => {
      expect(await failure(() => read(kubeconfig, { timeoutMs: 1500 }))).toBe("the API server did not answer GET /api/v1/pods?limit=500 within 1.5 s");
    });
  });
});

describe("which cluster the report reads", () => {
  it("refuses kubectl's fallback to an unauthenticated localhost:8080 when no kubeconfig exists", async () => {
    const home = testFolder("no-kubeconfig-home");
    await expect(resolveKubeTarget({}, { HOME: home, PATH: process.env.PATH })).rejects.toThrow(
      `no kubeconfig found (${home}/.kube/config does not exist): kubectl would fall back to an unauthenticated http://localhost:8080, which this report refuses; name the cluster with --kubeconfig <file> (aws eks update-kubeconfig --name <cluster> writes one), or set KUBECONFIG`,
    );
    await expect(resolveKubeTarget({ kubeconfig: path.join(home, "missing") }, { HOME: home })).rejects.toThrow(`--kubeconfig: ${home}/missing: no such file`);
  });
});
