import type { Requirement } from "../../instance-catalogue/requirements";
import { LABEL, normalizedLabel } from "../../shared/vocabulary/well-known-labels";
import { resourceQuantity } from "./container-resources";
import { requirementsOf } from "./pod-scheduling";
import type { ClaimSpec } from "./pod-spec";
import { at, isRecord, type Raw, type Report } from "./raw-object";

// Where a pod's persistent volumes let it run, as Karpenter reads them before it schedules: a claim bound to a
// volume takes the volume's node affinity (its first term; a local or hostPath volume's hostname left out); an
// unbound claim takes its StorageClass's allowedTopologies (the first term), and Karpenter ignores the pod while
// the claim names no class, or names one that binds Immediate (the volume is then made before any node exists
// for the pod). A claim binds at once to a volume of the workload that names it (claimRef) or that matches its
// class, size and access modes, as the PersistentVolume controller binds them, unless its class waits for the
// first consumer. What the workload does not hold is assumed, and the plan says so.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/volumetopology.go
//      (GetRequirements, getPersistentVolumeRequirements, getStorageClassRequirements, ValidatePersistentVolumeClaims)

interface StorageClassSpec {
  readonly waitsForConsumer: boolean;
  readonly topology: readonly Requirement[];
  readonly isDefault: boolean;
}

interface ClaimObject {
  /** Undefined: not written (the default class, if any); "": no class at all. */
  readonly storageClassName: string | undefined;
  readonly volumeName: string | undefined;
  readonly storage: number | undefined;
  readonly accessModes: readonly string[];
}

interface VolumeObject {
  readonly name: string;
  readonly storageClassName: string;
  readonly storage: number;
  readonly accessModes: readonly string[];
  /** "namespace/name" of the claim it is reserved for. */
  readonly claimRef: string | undefined;
  readonly requirements: readonly Requirement[];
}

export interface VolumeObjects {
  readonly classes: Map<string, StorageClassSpec>;
  /** By "namespace/name". */
  readonly claims: Map<string, ClaimObject>;
  readonly volumes: Map<string, VolumeObject>;
}

export const noVolumeObjects = (): VolumeObjects => ({ classes: new Map(), claims: new Map(), volumes: new Map() });

/** What a pod's claims make of it: requirements to add, or why Karpenter ignores it, and what had to be assumed. */
export interface VolumeTopology {
  readonly requirements: readonly Requirement[];
  readonly ignoredBecause: string | undefined;
  /** What was assumed of objects the workload does not hold ("StorageClass gp3 is not in the workload: ..."). */
  readonly assumed: readonly string[];
}

const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const stringOr = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** A volume's or a claim's storage amount in bytes, or undefined when it is not a quantity. */
export const volumeStorage = (value: unknown): number | undefined =>
  typeof value === "string" || typeof value === "number" ? resourceQuantity("memory", value) : undefined;

/** Records a StorageClass, PersistentVolumeClaim or PersistentVolume document; other kinds are not volumes. */
export function readVolumeObject(
  kind: string,
  object: Raw,
  name: string,
  namespace: string,
  storageOf: (v: unknown) => number | undefined,
  report: Report,
  into: VolumeObjects,
): boolean {
  const spec = isRecord(object.spec) ? object.spec : {};
  if (kind === "StorageClass") {
    const first =
      Array.isArray(object.allowedTopologies) && isRecord(object.allowedTopologies[0]) ? object.allowedTopologies[0].matchLabelExpressions : undefined;
    const topology = (Array.isArray(first) ? first : []).flatMap((e): Requirement[] =>
      isRecord(e) && typeof e.key === "string" ? [{ key: normalizedLabel(e.key), operator: "In", values: stringList(e.values) }] : [],
    );
    const isDefault = at(object, ["metadata", "annotations", "storageclass.kubernetes.io/is-default-class"]) === "true";
    into.classes.set(name, { waitsForConsumer: object.volumeBindingMode === "WaitForFirstConsumer", topology, isDefault });
    return true;
  }
  if (kind === "PersistentVolumeClaim") {
    into.claims.set(`${namespace}/${name}`, {
      storageClassName: stringOr(spec.storageClassName),
      volumeName: stringOr(spec.volumeName) || undefined,
      storage: storageOf(at(spec, ["resources", "requests", "storage"])),
      accessModes: stringList(spec.accessModes),
    });
    return true;
  }
  if (kind === "PersistentVolume") {
    const terms = at(spec, ["nodeAffinity", "required", "nodeSelectorTerms"]);
    const first = Array.isArray(terms) && isRecord(terms[0]) ? terms[0].matchExpressions : undefined;
    const onHost = spec.local !== undefined || spec.hostPath !== undefined;
    const requirements = requirementsOf(first, "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions", report).filter(
      (r) => !(onHost && r.key === LABEL.hostname),
    );
    const ref = isRecord(spec.claimRef) ? spec.claimRef : undefined;
    into.volumes.set(name, {
      name,
      storageClassName: stringOr(spec.storageClassName) ?? "",
      storage: storageOf(at(spec, ["capacity", "storage"])) ?? 0,
      accessModes: stringList(spec.accessModes),
      claimRef: typeof ref?.name === "string" ? `${stringOr(ref.namespace) ?? "default"}/${ref.name}` : undefined,
      requirements,
    });
    return true;
  }
  return false;
}

/** The class a claim of the workload asks for: its own, else the workload's default (none on EKS 1.30+ unless one is marked), else none (""). */
function classOf(claim: ClaimObject, objects: VolumeObjects): string {
  return claim.storageClassName ?? [...objects.classes.entries()].find(([, c]) => c.isDefault)?.[0] ?? "";
}

/**
 * Which volume of the workload each of its claims binds to at once, as the PersistentVolume controller binds
 * them: a claim that names its volume, or that a volume names (claimRef), to that one; then each other claim, in
 * the order of the files, to the smallest free volume of its class, size and access modes (findBestMatchForClaim),
 * unless its class waits for the first consumer (the scheduler binds those with the pod).
 */
function staticBindings(objects: VolumeObjects): Map<string, string> {
  const bound = new Map<string, string>();
  const taken = new Set<string>();
  const volumes = [...objects.volumes.values()];
  for (const [id, claim] of objects.claims) {
    const reserved = claim.volumeName ?? volumes.find((v) => v.claimRef === id)?.name;
    if (reserved !== undefined) {
      bound.set(id, reserved);
      taken.add(reserved);
    }
  }
  for (const v of volumes) if (v.claimRef !== undefined) taken.add(v.name);
  for (const [id, claim] of objects.claims) {
    const className = classOf(claim, objects);
    if (bound.has(id) || objects.classes.get(className)?.waitsForConsumer === true) continue;
    const match = volumes
      .filter(
        (v) =>
          !taken.has(v.name) &&
          v.storageClassName === className &&
          v.storage >= (claim.storage ?? 0) &&
          claim.accessModes.every((m) => v.accessModes.includes(m)),
      )
      .sort((a, b) => a.storage - b.storage)[0];
    if (match !== undefined) {
      bound.set(id, match.name);
      taken.add(match.name);
    }
  }
  return bound;
}

/** Worked out once per workload: the claims and volumes do not change once read. */
const bindingsOf = new WeakMap<VolumeObjects, Map<string, string>>();

/** Where one claim lets the pod run. */
function claimTopology(claim: ClaimSpec, namespace: string, objects: VolumeObjects): VolumeTopology {
  const id = claim.kind === "named" ? `${namespace}/${claim.name}` : undefined;
  const found: ClaimObject | undefined =
    claim.kind === "named"
      ? objects.claims.get(`${namespace}/${claim.name}`)
      : { storageClassName: claim.storageClassName, volumeName: claim.volumeName, storage: undefined, accessModes: [] };
  const label = claim.kind === "named" ? `PersistentVolumeClaim ${id}` : claim.what;
  if (found === undefined)
    return { requirements: [], ignoredBecause: undefined, assumed: [`${label} is not in the workload: assumed bound to a volume any zone can mount`] };
  const bound = (volumeName: string): VolumeTopology => {
    const volume = objects.volumes.get(volumeName);
    return {
      requirements: volume?.requirements ?? [],
      ignoredBecause: undefined,
      assumed: volume === undefined ? [`PersistentVolume ${volumeName} is not in the workload: assumed to allow every zone`] : [],
    };
  };
  if (found.volumeName !== undefined) return bound(found.volumeName);
  if (id !== undefined) {
    let bindings = bindingsOf.get(objects);
    if (bindings === undefined) {
      bindings = staticBindings(objects);
      bindingsOf.set(objects, bindings);
    }
    const volume = bindings.get(id);
    if (volume !== undefined) return bound(volume);
  }
  const className = classOf(found, objects);
  const storageClass = objects.classes.get(className);
  if (className === "") {
    return {
      requirements: [],
      ignoredBecause: `${label} is not bound and names no StorageClass, and the workload marks none as the default (EKS 1.30 and later has no default class): Karpenter ignores the pod ("unbound pvc must define a storage class")`,
      assumed: [],
    };
  }
  if (storageClass === undefined) {
    const assumption = `StorageClass ${className} is not in the workload: assumed to be in the cluster, binding WaitForFirstConsumer with no allowedTopologies`;
    return { requirements: [], ignoredBecause: undefined, assumed: [assumption] };
  }
  if (!storageClass.waitsForConsumer) {
    return {
      requirements: [],
      ignoredBecause: `${label} is not bound and its StorageClass ${className} binds Immediate (volumeBindingMode unset or Immediate): Karpenter ignores the pod until the volume is bound, which needs a node first; use WaitForFirstConsumer`,
      assumed: [],
    };
  }
  return { requirements: storageClass.topology, ignoredBecause: undefined, assumed: [] };
}

/** Where all of a pod's claims let it run: their requirements together, the first reason to ignore it, every assumption. */
export function volumeTopology(claims: readonly ClaimSpec[], namespace: string, objects: VolumeObjects): VolumeTopology {
  const each = claims.map((c) => claimTopology(c, namespace, objects));
  return {
    requirements: each.flatMap((t) => t.requirements),
    ignoredBecause: each.find((t) => t.ignoredBecause !== undefined)?.ignoredBecause,
    assumed: each.flatMap((t) => t.assumed),
  };
}
