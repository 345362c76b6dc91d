import { isRecord, type Raw } from "./raw-object";

// The pods the Prometheus Operator runs for its custom resources (monitoring.coreos.com/v1), which teams
// install everywhere and which no Deployment in the manifests shows: a Prometheus runs replicas x shards pods
// of a StatefulSet named prometheus-<name>, an Alertmanager replicas pods of alertmanager-<name>, a
// ThanosRuler replicas pods of thanos-ruler-<name>. Each pod has the main container, with spec.resources,
// and the operator's config-reloader sidecar (10m / 50Mi, requests equal to limits, since v0.66); the
// Alertmanager and ThanosRuler containers request 200Mi of memory when spec.resources says nothing. The
// containers a resource lists in spec.containers patch the operator's (by name) and are not planned.
// @see https://github.com/prometheus-operator/prometheus-operator/blob/main/cmd/operator/main.go (defaultReloaderCPU, defaultReloaderMemory)
// @see https://github.com/prometheus-operator/prometheus-operator/blob/main/pkg/alertmanager/statefulset.go

const CONFIG_RELOADER = { name: "config-reloader", resources: { requests: { cpu: "10m", memory: "50Mi" }, limits: { cpu: "10m", memory: "50Mi" } } };

interface OperatorKind {
  /** The StatefulSet the operator creates: its name is the plan's name for the pods. */
  readonly statefulSet: (name: string) => string;
  readonly pods: (spec: Raw) => unknown;
  readonly defaultResources: Raw | undefined;
  /** The labels the operator puts on the pods, for selectors. */
  readonly labels: (name: string) => Record<string, string>;
}

const replicas = (spec: Raw) => spec.replicas ?? 1;

export const OPERATOR_KINDS: Readonly<Record<string, OperatorKind>> = {
  Prometheus: {
    statefulSet: (name) => `prometheus-${name}`,
    // Shards multiply the pods; a non-integer is reported by the replica check that reads the result.
    pods: (spec) => {
      const r = replicas(spec);
      const shards = spec.shards ?? 1;
      return typeof r === "number" && typeof shards === "number" ? r * shards : r;
    },
    defaultResources: undefined,
    labels: (name) => ({ "app.kubernetes.io/name": "prometheus", "app.kubernetes.io/instance": name, prometheus: name }),
  },
  Alertmanager: {
    statefulSet: (name) => `alertmanager-${name}`,
    pods: replicas,
    defaultResources: { requests: { memory: "200Mi" } },
    labels: (name) => ({ "app.kubernetes.io/name": "alertmanager", "app.kubernetes.io/instance": name, alertmanager: name }),
  },
  ThanosRuler: {
    statefulSet: (name) => `thanos-ruler-${name}`,
    pods: replicas,
    defaultResources: { requests: { memory: "200Mi" } },
    labels: (name) => ({ "app.kubernetes.io/name": "thanos-ruler", "app.kubernetes.io/instance": name, "thanos-ruler": name }),
  },
};

/** The pod template the operator renders from a custom resource's spec: its scheduling fields and containers. */
export function operatorPodTemplate(kind: OperatorKind, name: string, spec: Raw): Raw {
  const main = { name: "main", resources: isRecord(spec.resources) ? spec.resources : kind.defaultResources };
  const podLabels = isRecord(spec.podMetadata) && isRecord(spec.podMetadata.labels) ? spec.podMetadata.labels : {};
  return {
    metadata: { labels: { ...podLabels, ...kind.labels(name) } },
    spec: {
      containers: [main, CONFIG_RELOADER],
      nodeSelector: spec.nodeSelector,
      affinity: spec.affinity,
      tolerations: spec.tolerations,
      topologySpreadConstraints: spec.topologySpreadConstraints,
    },
  };
}
