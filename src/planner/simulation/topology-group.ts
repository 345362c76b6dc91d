import { LABEL } from "../../shared/vocabulary/well-known-labels";
import { FITS, type FitOrReason, fitWith, refuse } from "./fit-or-reason";
import type { PodConstraint } from "./preferences";

// One topology group: the pods one constraint counts (a spread, a pod affinity or anti-affinity term, with its
// selector and namespaces) by domain, and the domains a pod it constrains may take next. Pods whose constraints
// are the same share a group, as Karpenter hashes them.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/topologygroup.go
//      (nextDomainTopologySpread, domainMinCount, nextDomainAffinity, nextDomainAntiAffinity)

/** The domains the planner models; other topology keys are warned about and left out. */
export type DomainKind = "hostname" | "zone" | "capacity-type";

const DOMAIN_KINDS: Readonly<Record<string, DomainKind>> = {
  [LABEL.hostname]: "hostname",
  [LABEL.zone]: "zone",
  // Zone ids name the same domains as zones, one to one. (The deprecated zone key is read as the current one.)
  [LABEL.zoneId]: "zone",
  [LABEL.capacityType]: "capacity-type",
};

export const domainKindOf = (topologyKey: string): DomainKind | undefined => DOMAIN_KINDS[topologyKey];

export interface TopologyGroup {
  readonly kind: PodConstraint["kind"];
  readonly domain: DomainKind;
  readonly maxSkew: number;
  readonly minDomains: number | undefined;
  /** The zones or capacity types that count (hostname: unused). */
  readonly universe: readonly string[];
  /** Matching pods per domain. */
  readonly counts: Map<string, number>;
  /** Domains holding at least one matching pod. */
  nonEmpty: number;
  /** Required anti-affinity only: pods that carry the constraint, per domain (inverse anti-affinity). */
  readonly owners: Map<string, number>;
  readonly description: string;
}

/**
 * Whether a pod (`self`: 1 when the group counts the pod itself) may join the node with this hostname, for a
 * group on kubernetes.io/hostname: each node is its own domain.
 */
export function allowsHost(t: TopologyGroup, self: number, host: string): FitOrReason {
  const count = t.counts.get(host) ?? 0;
  if (t.kind === "spread" && count + self > t.maxSkew) return refuse(`${t.description}: the node already has ${count} matching pods`);
  if (t.kind === "anti-affinity" && count > 0) return refuse(`${t.description}: the node already has a matching pod`);
  // Bootstrap: the first pod of a self-selecting group may start anywhere.
  if (t.kind === "affinity" && count === 0 && !(self === 1 && t.nonEmpty === 0)) return refuse(`${t.description}: the node has no matching pod`);
  return FITS;
}

/**
 * The zones (or capacity types) left for a pod among those the node could still take (`nodeDomains`), given the
 * domains the pod's own required node affinity allows (`podDomains`); `self` is 1 when the group counts the pod.
 */
export function nextDomains<D extends string>(
  t: TopologyGroup,
  self: number,
  nodeDomains: readonly D[],
  podDomains: readonly string[],
): FitOrReason<readonly D[]> {
  const count = (d: string) => t.counts.get(d) ?? 0;
  const both = nodeDomains.filter((d) => podDomains.includes(d));
  const noun = t.domain === "zone" ? "zone" : "capacity type";
  if (t.kind === "spread") {
    const eligible = podDomains.filter((d) => t.universe.includes(d));
    const min = t.minDomains !== undefined && eligible.length < t.minDomains ? 0 : Math.min(...eligible.map(count), Number.MAX_SAFE_INTEGER);
    const valid = both.filter((d) => count(d) + self - min <= t.maxSkew);
    if (valid.length === 0) {
      const seen = eligible.map((d) => `${d}: ${count(d)}`).join(", ");
      return refuse(
        `${t.description}: no ${noun} the node could use (${both.join(", ") || "none"}) keeps the skew within ${t.maxSkew} (matching pods by ${noun}: ${seen})`,
      );
    }
    // The valid domain with the fewest matching pods; ties in the order the domains are listed.
    return fitWith([valid.reduce((best, d) => (count(d) < count(best) ? d : best))]);
  }
  if (t.kind === "anti-affinity") {
    const empty = both.filter((d) => count(d) === 0);
    return empty.length > 0
      ? fitWith(empty)
      : refuse(`${t.description}: every ${noun} the node could use (${both.join(", ") || "none"}) already has a matching pod`);
  }
  const occupied = both.filter((d) => count(d) > 0);
  if (occupied.length > 0) return fitWith(occupied);
  const elsewhere = t.universe.filter((d) => count(d) > 0);
  // Bootstrap: the first pod of a self-selecting group opens a domain (the first the node and the pod allow).
  if (self === 1 && (elsewhere.length === 0 || !elsewhere.some((d) => podDomains.includes(d))) && both.length > 0) return fitWith([both[0]]);
  return refuse(`${t.description}: no ${noun} the node could use (${both.join(", ") || "none"}) has a matching pod`);
}
