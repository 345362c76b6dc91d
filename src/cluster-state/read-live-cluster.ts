import type { ClusterObjects, UnreadKind } from "./cluster-objects";
import { emptyClusterObjects } from "./cluster-objects";
import type { KubeTarget } from "./kube-target";
import { ClusterReadError, startKubectlProxy } from "./kubectl-proxy";
import { type ListOptions, listAll, serverVersion } from "./list-pages";
import { STATE_KINDS } from "./state-kinds";
import { trimObject } from "./trim-object";

// A running cluster's state, read-only: each kind listed page by page through kubectl proxy (kubectl-proxy.ts),
// each object cut to what the report reads as it arrives (trim-object.ts). Nodes and pods are required: a
// refusal of either stops the read. The other kinds are read if the API serves and allows them; one it refuses
// (403) or does not serve (404: Karpenter's CRDs not installed) is named and the report goes on without it.

export interface ReadLiveOptions {
  readonly kubectl?: string;
  readonly pageSize?: ListOptions["pageSize"];
  readonly timeoutMs?: ListOptions["timeoutMs"];
  /** Called after every page: the kind being read and how many of it so far. */
  readonly progress?: (kind: string, count: number) => void;
}

export async function readLiveCluster(target: KubeTarget, options: ReadLiveOptions = {}): Promise<ClusterObjects> {
  const proxy = await startKubectlProxy(
    target,
    STATE_KINDS.map((k) => k.path),
    options.kubectl,
  );
  try {
    const objects = emptyClusterObjects(`the cluster at ${target.server}${target.context === undefined ? "" : ` (context ${target.context})`}`);
    const unread: UnreadKind[] = [];
    for (const kind of STATE_KINDS) {
      const kept = objects.byKind[kind.kind];
      const refusal = await listAll(proxy.socketPath, kind.path, {
        pageSize: options.pageSize,
        timeoutMs: options.timeoutMs,
        onItems: (items) => {
          for (const item of items) kept.push(trimObject(kind.kind, item));
          options.progress?.(kind.kind, kept.length);
        },
        onRestart: () => {
          kept.length = 0;
        },
      });
      if (refusal === undefined) continue;
      if (refusal.status === 404) {
        unread.push({ kind: kind.kind, reason: kind.custom ? "not installed (its CRD is not in the cluster)" : "not served by this API server" });
      } else if (kind.required) {
        throw new ClusterReadError(
          `cannot list ${kind.resource} (403 Forbidden: ${refusal.message}); the report needs get and list on nodes and pods across the cluster: docs/operations.md, Measure the savings, lists the read-only ClusterRole to bind`,
        );
      } else {
        unread.push({ kind: kind.kind, reason: `forbidden (403: ${refusal.message})` });
      }
    }
    return { ...objects, unread, serverVersion: await serverVersion(proxy.socketPath, options.timeoutMs) };
  } finally {
    proxy.close();
  }
}
