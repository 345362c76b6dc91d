import { formatBytes, formatCpu } from "../../shared/quantity";
import { effectiveRequests, type ResourceAmounts, readResourceAmounts, readResourceList } from "./container-resources";
import { aggregateRequests, type ContainerRole } from "./pod-requests";
import { type Placement, placementOf } from "./pod-scheduling";
import { at, isRecord, type Raw, type Report } from "./raw-object";
import type { HostPort } from "./workload-model";

// A pod spec (a template's `spec`) as written, checked as the API server checks it: its containers' requests
// and limits, its own pod-level resources, where it may go, the host ports it binds, and what the cluster's
// admission reads of it (runtimeClassName, its volumes' claims). What the cluster then adds to it (LimitRange
// defaults, RuntimeClass overhead, volume topology) is admission.ts's.

export interface ContainerSpec {
  readonly name: string;
  readonly role: ContainerRole;
  readonly resources: ResourceAmounts;
}

/** A volume backed by a PersistentVolumeClaim: one named in the namespace, or one made from a template for each pod. */
export type ClaimSpec =
  /** `volume`: the pod's volume that mounts it (a StatefulSet's claim template of that name replaces it). */
  | { readonly kind: "named"; readonly name: string; readonly volume: string }
  | { readonly kind: "template"; readonly what: string; readonly storageClassName: string | undefined; readonly volumeName: string | undefined };

export interface PodSpecFacts {
  readonly containers: readonly ContainerSpec[];
  /** spec.resources: requests and limits for the pod as a whole (beta, on by default since Kubernetes 1.34). */
  readonly podResources: ResourceAmounts | undefined;
  readonly placement: Placement;
  readonly hostNetwork: boolean;
  /** The ports its containers bind on the node (with hostNetwork, every container port). */
  readonly hostPorts: readonly HostPort[];
  /** Some container runs privileged. */
  readonly privileged: boolean;
  /** spec.nodeName: the pod is bound to that node from the start. */
  readonly nodeName: string | undefined;
  readonly runtimeClassName: string | undefined;
  /**
   * spec.overhead, which only the RuntimeClass admission plugin writes: a running pod carries it, and the
   * scheduler and Karpenter add it to what the pod requests.
   */
  readonly overhead: Readonly<Record<string, number>> | undefined;
  readonly claims: readonly ClaimSpec[];
}

function containers(spec: Raw, field: "containers" | "initContainers", path: string, report: Report): Raw[] {
  const list = spec[field];
  if (list === undefined && field === "initContainers") return [];
  if (!Array.isArray(list) || (field === "containers" && list.length === 0)) {
    report(`${path}.${field}`, list, field === "containers" ? "must list at least one container" : "must be a list of containers");
    return [];
  }
  return list.filter((c, i) => {
    if (isRecord(c)) return true;
    report(`${path}.${field}[${i}]`, c, "must be a container (a mapping)");
    return false;
  });
}

const isPort = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 65535;

/**
 * The host ports of the app containers, as Karpenter counts them (GetHostPorts reads spec.containers only): a
 * hostPort, or with hostNetwork the container port, which the API server copies into hostPort. The protocol is
 * TCP unless written, the address 0.0.0.0 (every address) unless hostIP says otherwise.
 * @see kubernetes-sigs/karpenter v1.14.1 pkg/scheduling/hostportusage.go (GetHostPorts)
 */
function hostPortsOf(app: readonly Raw[], hostNetwork: boolean, path: string, report: Report): HostPort[] {
  const found: HostPort[] = [];
  for (const [i, c] of app.entries()) {
    const ports = Array.isArray(c.ports) ? c.ports : [];
    for (const [j, p] of ports.entries()) {
      if (!isRecord(p)) continue;
      const bound = p.hostPort ?? (hostNetwork ? p.containerPort : undefined);
      if (bound === undefined || bound === 0) continue;
      if (!isPort(bound)) {
        report(`${path}.containers[${i}].ports[${j}].hostPort`, bound, "must be a port number from 1 to 65535");
        continue;
      }
      found.push({
        port: bound,
        protocol: typeof p.protocol === "string" ? p.protocol : "TCP",
        ip: typeof p.hostIP === "string" && p.hostIP !== "" ? p.hostIP : "0.0.0.0",
      });
    }
  }
  return found;
}

/** The claims of the pod's volumes: persistentVolumeClaim volumes, and generic ephemeral volumes (a claim per pod). */
function claimsOf(spec: Raw, path: string, report: Report): ClaimSpec[] {
  if (spec.volumes === undefined || spec.volumes === null) return [];
  if (!Array.isArray(spec.volumes)) {
    report(`${path}.volumes`, spec.volumes, "must be a list of volumes");
    return [];
  }
  return spec.volumes.flatMap((v, i): ClaimSpec[] => {
    if (!isRecord(v)) return [];
    if (isRecord(v.persistentVolumeClaim)) {
      const name = v.persistentVolumeClaim.claimName;
      if (typeof name === "string" && name !== "") return [{ kind: "named", name, volume: String(v.name ?? "") }];
      report(`${path}.volumes[${i}].persistentVolumeClaim.claimName`, name, "must name a PersistentVolumeClaim of the pod's namespace");
      return [];
    }
    const template = isRecord(v.ephemeral) && isRecord(v.ephemeral.volumeClaimTemplate) ? v.ephemeral.volumeClaimTemplate.spec : undefined;
    if (!isRecord(template)) return [];
    return [claimTemplate(template, `the ephemeral volume ${String(v.name)}`)];
  });
}

/** A claim made from a template's spec (a generic ephemeral volume, a StatefulSet's volumeClaimTemplates). */
export function claimTemplate(spec: Raw, what: string): ClaimSpec {
  return {
    kind: "template",
    what,
    storageClassName: typeof spec.storageClassName === "string" ? spec.storageClassName : undefined,
    volumeName: typeof spec.volumeName === "string" && spec.volumeName !== "" ? spec.volumeName : undefined,
  };
}

/** "700m", "1.5 GiB": an amount in its unit, for a message. */
const formatAmount = (name: string, amount: number): string => (name === "cpu" ? formatCpu(amount) : formatBytes(amount));

/** Pod-level resources take CPU, memory and huge pages (KEP-2837). */
const POD_LEVEL_RESOURCES = /^(cpu|memory|hugepages-.+)$/;

/**
 * spec.resources, as the API server checks it against the containers: no request below what the containers
 * request together, no container limit above the pod's.
 * @see kubernetes/kubernetes pkg/apis/core/validation/validation.go (validatePodResources, validatePodResourceConsistency)
 */
function podLevelResources(value: unknown, specs: readonly ContainerSpec[], path: string, report: Report): ResourceAmounts | undefined {
  if (value === undefined || value === null) return undefined;
  const amounts = readResourceAmounts(value, path, report);
  const refuse = (part: "requests" | "limits", name: string, message: string) => report(`${path}.${part}.${name}`, at(value, [part, name]), message);
  for (const part of ["requests", "limits"] as const) {
    for (const name of Object.keys(amounts[part]))
      if (!POD_LEVEL_RESOURCES.test(name)) refuse(part, name, "is not a pod-level resource: spec.resources takes cpu, memory and hugepages-* only");
  }
  const together = aggregateRequests(specs.map((c) => ({ role: c.role, requests: effectiveRequests(c.resources) })));
  for (const [name, request] of Object.entries(amounts.requests)) {
    const sum = together[name] ?? 0;
    if (request < sum)
      refuse(
        "requests",
        name,
        `must be at least what the containers request together (${formatAmount(name, sum)}): the API server refuses a pod-level request below it`,
      );
  }
  for (const [name, limit] of Object.entries(amounts.limits)) {
    const most = Math.max(0, ...specs.map((c) => c.resources.limits[name] ?? 0));
    if (most > limit)
      refuse(
        "limits",
        name,
        `must be at least each container's limit (one has ${formatAmount(name, most)}): the API server refuses a pod-level limit below it`,
      );
  }
  return amounts;
}

/** Most pods bind no host port and mount no claim: they share one empty list, kept until every file is read. */
const NONE: readonly never[] = [];
const orNone = <T>(list: readonly T[]): readonly T[] => (list.length === 0 ? NONE : list);

const privileged = (c: Raw) => isRecord(c.securityContext) && c.securityContext.privileged === true;

/** A pod spec as written; problems go to `report` with their path under `path`. Undefined when it is not a pod spec at all. */
export function readPodSpec(spec: unknown, path: string, report: Report): PodSpecFacts | undefined {
  if (!isRecord(spec)) {
    report(path, spec, "must be a pod spec (a mapping with containers)");
    return undefined;
  }
  const app = containers(spec, "containers", path, report);
  const specs: ContainerSpec[] = app.map((c, i) => ({
    name: String(c.name ?? `#${i}`),
    role: "app",
    resources: readResourceAmounts(c.resources, `${path}.containers[${i}].resources`, report),
  }));
  const init = containers(spec, "initContainers", path, report);
  for (const [i, c] of init.entries()) {
    const resources = readResourceAmounts(c.resources, `${path}.initContainers[${i}].resources`, report);
    specs.push({ name: String(c.name ?? `init #${i}`), role: c.restartPolicy === "Always" ? "sidecar" : "init", resources });
  }
  const hostNetwork = spec.hostNetwork === true;
  return {
    containers: specs,
    podResources: podLevelResources(spec.resources, specs, `${path}.resources`, report),
    placement: placementOf(spec, path, report),
    hostNetwork,
    hostPorts: orNone(hostPortsOf(app, hostNetwork, path, report)),
    privileged: [...app, ...init].some(privileged),
    nodeName: typeof spec.nodeName === "string" && spec.nodeName !== "" ? spec.nodeName : undefined,
    runtimeClassName: typeof spec.runtimeClassName === "string" && spec.runtimeClassName !== "" ? spec.runtimeClassName : undefined,
    overhead: isRecord(spec.overhead) ? readResourceList(spec.overhead, `${path}.overhead`, report) : undefined,
    claims: orNone(claimsOf(spec, path, report)),
  };
}
