import { allowedValues, type Requirement } from "../../instance-catalogue/requirements";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import { formatSelector, selects, withLabels } from "../workload/label-selector";
import type { LabelSelector, NamespaceScope, PodGroup } from "../workload/workload-model";
import type { PodConstraint } from "./preferences";

// Topology, as Karpenter's scheduler keeps it: one group per distinct constraint (spread, pod affinity, pod
// anti-affinity), counting the pods its selector matches in each domain (zone, node, capacity type), and the
// domains a pod may take on a NodeClaim given those counts.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/topology.go (Record, AddRequirements)
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/topologygroup.go
//      (nextDomainTopologySpread, domainMinCount, nextDomainAffinity, nextDomainAntiAffinity)

/** The domains the planner models; other topology keys are warned about and left out. */
export type DomainKind = "hostname" | "zone" | "capacity-type";

const DOMAIN_KINDS: Readonly<Record<string, DomainKind>> = {
  [LABEL.hostname]: "hostname",
  [LABEL.zone]: "zone",
  // The legacy zone label, and zone ids, which name the same domains one to one.
  "failure-domain.beta.kubernetes.io/zone": "zone",
  [LABEL.zoneId]: "zone",
  [LABEL.capacityType]: "capacity-type",
};

export const domainKindOf = (topologyKey: string): DomainKind | undefined => DOMAIN_KINDS[topologyKey];

/** Where a NodeClaim stands: its node (placeholder hostname), and the zones and capacity types it may still take. */
export interface Placement {
  readonly host: string;
  readonly zones: readonly string[];
  readonly capacityTypes: readonly string[];
}

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

export interface DomainUniverse {
  /** Zones of every pool (or of the pools whose taints the owner tolerates, for nodeTaintsPolicy Honor). */
  readonly zones: (honorTaintsOf: PodGroup | undefined) => readonly string[];
  readonly capacityTypes: readonly string[];
}

const bump = (map: Map<string, number>, key: string): number => {
  const next = (map.get(key) ?? 0) + 1;
  map.set(key, next);
  return next;
};

function namespacesOf(scope: NamespaceScope, owner: PodGroup): readonly string[] | "all" {
  return scope.kind === "all" ? "all" : scope.kind === "own" ? [owner.namespace] : scope.namespaces;
}

/** The selector a constraint of `owner` applies, with matchLabelKeys resolved; `sameGroup` when a key is not on the template. */
function resolvedSelector(
  selector: LabelSelector | undefined,
  matchLabelKeys: readonly string[],
  owner: PodGroup,
): { selector: LabelSelector | undefined; sameGroup: boolean } {
  if (selector === undefined) return { selector, sameGroup: false };
  const own = Object.fromEntries(matchLabelKeys.filter((k) => owner.labels[k] !== undefined).map((k) => [k, owner.labels[k]]));
  // pod-template-hash and other labels a controller adds at run time: the pods of this workload's revision.
  const sameGroup = matchLabelKeys.some((k) => owner.labels[k] === undefined);
  return { selector: withLabels(selector, own), sameGroup };
}

export class TopologyRegistry {
  private readonly byHash = new Map<string, TopologyGroup>();
  private readonly byConstraint = new Map<object, TopologyGroup>();
  /** Per pod group: the topology groups whose selector matches its pods (they count them). */
  readonly counted: TopologyGroup[][];
  /** Per pod group: the required anti-affinity groups it owns (its pods are counted as owners). */
  readonly owned: TopologyGroup[][];
  /** Per pod group: required anti-affinity groups of other pods that select it (inverse anti-affinity). */
  readonly inverse: TopologyGroup[][];

  constructor(groups: readonly PodGroup[], constraintsOf: (group: number) => readonly PodConstraint[], universe: DomainUniverse) {
    const matchers: { group: TopologyGroup; matches: (g: PodGroup) => boolean }[] = [];
    this.owned = groups.map(() => []);
    groups.forEach((owner, g) => {
      for (const c of constraintsOf(g)) {
        const key = c.kind === "spread" ? c.spread.topologyKey : c.term.topologyKey;
        const domain = domainKindOf(key);
        if (domain === undefined) continue;
        const raw = c.kind === "spread" ? c.spread : c.term;
        const { selector, sameGroup } = resolvedSelector(raw.selector, raw.matchLabelKeys, owner);
        const namespaces = namespacesOf(c.kind === "spread" ? { kind: "own" } : c.term.namespaces, owner);
        const maxSkew = c.kind === "spread" ? c.spread.maxSkew : 0;
        const minDomains = c.kind === "spread" ? c.spread.minDomains : undefined;
        const honor = c.kind === "spread" && c.spread.nodeTaintsPolicy === "Honor";
        const hash = JSON.stringify([c.kind, domain, maxSkew, minDomains, honor ? owner.id : "", selector, namespaces, sameGroup ? owner.id : ""]);
        let group = this.byHash.get(hash);
        if (group === undefined) {
          const what = c.kind === "spread" ? `topology spread on ${key} (maxSkew ${maxSkew})` : `pod ${c.kind} on ${key}`;
          group = {
            kind: c.kind,
            domain,
            maxSkew,
            minDomains,
            universe: domain === "zone" ? universe.zones(honor ? owner : undefined) : domain === "capacity-type" ? universe.capacityTypes : [],
            counts: new Map(),
            nonEmpty: 0,
            owners: new Map(),
            description: `${what} against ${formatSelector(selector)}`,
          };
          this.byHash.set(hash, group);
          const inNamespace = (p: PodGroup) => namespaces === "all" || namespaces.includes(p.namespace);
          const found = group;
          matchers.push({
            group: found,
            matches: (p) => selector !== undefined && inNamespace(p) && (!sameGroup || p === owner) && selects(selector, p.labels),
          });
        }
        this.byConstraint.set(raw, group);
        if (c.kind === "anti-affinity" && !c.preferred) this.owned[g].push(group);
      }
    });
    // Most pods meet no constraint: they share one empty list rather than each holding its own.
    const none: TopologyGroup[] = [];
    this.counted = groups.map((p) => (matchers.length === 0 ? none : matchers.filter((m) => m.matches(p)).map((m) => m.group)));
    const requiredAnti = new Set(this.owned.flat());
    this.inverse = this.counted.map((list) => (list.length === 0 || requiredAnti.size === 0 ? none : list.filter((t) => requiredAnti.has(t))));
  }

  groupOf(constraint: PodConstraint): TopologyGroup | undefined {
    return this.byConstraint.get(constraint.kind === "spread" ? constraint.spread : constraint.term);
  }

  /** Whether a pod of group `g` is counted by `t`. */
  counts(g: number, t: TopologyGroup): boolean {
    return this.counted[g].includes(t);
  }

  /** Forgets every count: a new provisioning loop counts the pods on the nodes as they stand (record them again). */
  reset(): void {
    for (const t of this.byHash.values()) {
      t.counts.clear();
      t.owners.clear();
      t.nonEmpty = 0;
    }
  }

  /** Counts a pod of group `g` placed on a NodeClaim that now stands at `at`. */
  record(g: number, at: Placement): void {
    const domains = (t: TopologyGroup, all: boolean): readonly string[] => {
      if (t.domain === "hostname") return [at.host];
      const values = t.domain === "zone" ? at.zones : at.capacityTypes;
      // Spread and affinity count a pod only once its node is down to one domain; anti-affinity blocks them all.
      return all || values.length === 1 ? values : [];
    };
    for (const t of this.counted[g]) for (const d of domains(t, t.kind === "anti-affinity")) if (bump(t.counts, d) === 1) t.nonEmpty++;
    for (const t of this.owned[g]) for (const d of domains(t, true)) bump(t.owners, d);
  }

  /**
   * The placement a pod of group `g`, in a form with these constraints, may take on a NodeClaim at `at`:
   * the zones and capacity types narrowed by every constraint, or why none is left.
   */
  allow(g: number, constraints: readonly PodConstraint[], strict: readonly Requirement[], at: Placement): Placement | string {
    if (constraints.length === 0 && this.inverse[g].length === 0) return at;
    let { zones, capacityTypes } = at;
    const self = (t: TopologyGroup) => (this.counts(g, t) ? 1 : 0);
    for (const c of constraints) {
      const t = this.groupOf(c);
      if (t === undefined) continue;
      if (t.domain === "hostname") {
        const count = t.counts.get(at.host) ?? 0;
        if (t.kind === "spread" && count + self(t) > t.maxSkew) return `${t.description}: the node already has ${count} matching pods`;
        if (t.kind === "anti-affinity" && count > 0) return `${t.description}: the node already has a matching pod`;
        if (t.kind === "affinity" && count === 0 && !(self(t) === 1 && t.nonEmpty === 0)) return `${t.description}: the node has no matching pod`;
        continue;
      }
      const key = t.domain === "zone" ? LABEL.zone : LABEL.capacityType;
      const nodeDomains = t.domain === "zone" ? zones : capacityTypes;
      const podDomains = strict.filter((r) => r.key === key).reduce<readonly string[]>((left, r) => allowedValues(left, r), t.universe);
      const next = this.nextDomains(t, self(t), nodeDomains, podDomains);
      if (typeof next === "string") return next;
      if (t.domain === "zone") zones = next;
      else capacityTypes = next;
    }
    for (const t of this.inverse[g]) {
      if (t.domain === "hostname") {
        if ((t.owners.get(at.host) ?? 0) > 0) return `${t.description} (of another workload): the node has a pod that repels this one`;
        continue;
      }
      const free = (t.domain === "zone" ? zones : capacityTypes).filter((d) => (t.owners.get(d) ?? 0) === 0);
      if (free.length === 0) return `${t.description} (of another workload): every ${t.domain} the node could use has a pod that repels this one`;
      if (t.domain === "zone") zones = free;
      else capacityTypes = free;
    }
    return { host: at.host, zones, capacityTypes };
  }

  /** The zones (or capacity types) left for the pod: topologygroup.go's nextDomain* for one group. */
  private nextDomains(t: TopologyGroup, self: number, nodeDomains: readonly string[], podDomains: readonly string[]): readonly string[] | string {
    const count = (d: string) => t.counts.get(d) ?? 0;
    const both = nodeDomains.filter((d) => podDomains.includes(d));
    const noun = t.domain === "zone" ? "zone" : "capacity type";
    if (t.kind === "spread") {
      const eligible = podDomains.filter((d) => t.universe.includes(d));
      const min = t.minDomains !== undefined && eligible.length < t.minDomains ? 0 : Math.min(...eligible.map(count), Number.MAX_SAFE_INTEGER);
      const valid = both.filter((d) => count(d) + self - min <= t.maxSkew);
      if (valid.length === 0) {
        const seen = eligible.map((d) => `${d}: ${count(d)}`).join(", ");
        return `${t.description}: no ${noun} the node could use (${both.join(", ") || "none"}) keeps the skew within ${t.maxSkew} (matching pods by ${noun}: ${seen})`;
      }
      // The valid domain with the fewest matching pods; ties in the order the domains are listed.
      return [valid.reduce((best, d) => (count(d) < count(best) ? d : best))];
    }
    if (t.kind === "anti-affinity") {
      const empty = both.filter((d) => count(d) === 0);
      return empty.length > 0 ? empty : `${t.description}: every ${noun} the node could use (${both.join(", ") || "none"}) already has a matching pod`;
    }
    const occupied = both.filter((d) => count(d) > 0);
    if (occupied.length > 0) return occupied;
    const elsewhere = t.universe.filter((d) => count(d) > 0);
    // Bootstrap: the first pod of a self-selecting group opens a domain (the first the node and the pod allow).
    if (self === 1 && (elsewhere.length === 0 || !elsewhere.some((d) => podDomains.includes(d))) && both.length > 0) return [both[0]];
    return `${t.description}: no ${noun} the node could use (${both.join(", ") || "none"}) has a matching pod`;
  }
}
