import { allowedValues, type Requirement } from "../../instance-catalogue/requirements";
import { getOrAdd } from "../../shared/get-or-add";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import { formatSelector, withLabels } from "../workload/label-selector";
import type { LabelSelector, NamespaceScope, PodGroup } from "../workload/workload-model";
import { type FitOrReason, fitWith, refuse } from "./fit-or-reason";
import type { PodData } from "./pod-data";
import type { PodConstraint } from "./preferences";
import { allowsHost, domainKindOf, nextDomains, type TopologyGroup } from "./topology-group";
import { GroupMatchers } from "./topology-matchers";

// Topology, as Karpenter's scheduler keeps it: one group per distinct constraint (spread, pod affinity, pod
// anti-affinity) of the pods it knows (the pods to schedule and the pods already on nodes), counting the pods
// each group's selector matches in each domain (zone, node, capacity type), and the domains a pod may take on
// a node given those counts. Counts start from the pods already bound to nodes, as Karpenter's Topology is
// built from the cluster's state, and grow as the scheduler records the pods it places.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/topology.go
//      (NewTopology, countDomains, Record, AddRequirements)

/** Where a node stands: its hostname, and the zones and capacity types it may still take (one each once running). */
export interface Placement<C extends string = string> {
  readonly host: string;
  readonly zones: readonly string[];
  readonly capacityTypes: readonly C[];
}

export interface DomainUniverse {
  /** Zones of every pool (or of the pools whose taints the owner tolerates, for nodeTaintsPolicy Honor). */
  readonly zones: (honorTaintsOf: PodGroup | undefined) => readonly string[];
  readonly capacityTypes: readonly string[];
}

/** A node as topology counts it: where it stands, and its pods. */
export interface CountedNode {
  readonly placement: Placement;
  readonly pods: readonly PodCount[];
}

/** The pods of one group already on a node. */
export interface PodCount {
  readonly group: PodGroup;
  readonly count: number;
}

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

/** Most pods meet no constraint: they share one empty list rather than each holding its own. */
const NONE: readonly TopologyGroup[] = [];

/** The topology groups a pod group takes part in; pods in none have no entry. */
interface Involvement {
  /** The groups whose selector matches its pods (they count them). */
  counting: readonly TopologyGroup[];
  /** The required anti-affinity groups it owns (its pods are counted as owners). */
  owning: readonly TopologyGroup[];
  /** Required anti-affinity groups of other pods that select it (inverse anti-affinity). */
  repelling: readonly TopologyGroup[];
}

export class Topology {
  private readonly byHash = new Map<string, TopologyGroup>();
  private readonly byConstraint = new Map<object, TopologyGroup>();
  /** Per pod group, looked up once for each pod a scheduler tries. */
  private readonly involvement = new Map<PodGroup, Involvement>();
  /** A node's pods that take part in some group, by its pod list: the disruption controller recounts the same nodes often. */
  private readonly involvedRuns = new WeakMap<readonly PodCount[], readonly PodCount[]>();
  /** The cluster the counts stand for (countOnce), while simulations start from them. */
  private countedFor: object | undefined;
  /** Each count changed since `withoutNodes`, to undo; undefined outside a simulation. */
  private journal: { readonly group: TopologyGroup; readonly map: Map<string, number>; readonly domain: string; readonly times: number }[] | undefined;

  /**
   * `pods`: every pod the scheduler may record, those to schedule and those already on nodes, each with the
   * forms it is tried in (its constraints as written make the groups).
   */
  constructor(pods: readonly Pick<PodData, "group" | "forms">[], universe: DomainUniverse) {
    const matchers = new GroupMatchers();
    for (const { group: owner, forms } of pods) {
      const constraints = forms[0].constraints;
      // Most pods have no constraint: no list for them.
      if (constraints.length === 0) continue;
      const owned: TopologyGroup[] = [];
      for (const c of constraints) {
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
          matchers.add(group, selector, namespaces, sameGroup ? owner : undefined);
        }
        this.byConstraint.set(raw, group);
        if (c.kind === "anti-affinity" && !c.preferred) owned.push(group);
      }
      if (owned.length > 0) this.involvement.set(owner, { counting: NONE, owning: owned, repelling: NONE });
    }
    const requiredAnti = new Set([...this.involvement.values()].flatMap((i) => i.owning));
    for (const { group: g } of pods) {
      const counted = matchers.size === 0 ? NONE : matchers.matching(g);
      if (counted.length === 0) continue;
      const repelled = requiredAnti.size === 0 ? NONE : counted.filter((t) => requiredAnti.has(t));
      const owned = this.involvement.get(g)?.owning ?? NONE;
      this.involvement.set(g, { counting: counted, owning: owned, repelling: repelled });
    }
  }

  /** The topology group a constraint belongs to; undefined for a topology key the planner leaves out. */
  groupOf(constraint: PodConstraint): TopologyGroup | undefined {
    return this.byConstraint.get(constraint.kind === "spread" ? constraint.spread : constraint.term);
  }

  /** Whether the pods of `group` count in `t`. */
  counts(group: PodGroup, t: TopologyGroup): boolean {
    return (this.involvement.get(group)?.counting ?? NONE).includes(t);
  }

  /** Forgets every count, then counts the pods already on these nodes (topology.go countDomains). */
  countPodsOn(nodes: Iterable<CountedNode>): void {
    this.journal = undefined;
    this.countedFor = undefined;
    for (const t of this.byHash.values()) {
      t.counts.clear();
      t.owners.clear();
      t.nonEmpty = 0;
    }
    if (this.involvement.size === 0) return;
    for (const node of nodes) for (const { group, count } of this.involvedIn(node.pods)) this.record(group, node.placement, count);
  }

  /**
   * Counts the pods on `nodes` once for `cluster` (one consolidation pass's nodes): each simulation of the pass then
   * starts from these counts less the nodes it removes (`withoutNodes`), and puts them back when done (`restore`).
   * A simulation costs what it changes, not a recount of every pod of the cluster.
   */
  countOnce(cluster: object, nodes: () => Iterable<CountedNode>): void {
    if (this.countedFor === cluster) return;
    this.countPodsOn(nodes());
    this.countedFor = cluster;
  }

  /** Takes the pods of these nodes out of the counts, and notes every change from here until `restore`. */
  withoutNodes(nodes: Iterable<CountedNode>): void {
    this.journal = [];
    if (this.involvement.size === 0) return;
    for (const node of nodes) for (const { group, count } of this.involvedIn(node.pods)) this.record(group, node.placement, -count);
  }

  /** Undoes every change since `withoutNodes`: the counts are those `countOnce` made again. */
  restore(): void {
    const journal = this.journal ?? [];
    this.journal = undefined;
    for (let i = journal.length - 1; i >= 0; i--) {
      const { group, map, domain, times } = journal[i];
      this.change(group, map, domain, -times);
    }
  }

  /** Adds `times` (negative to take away) to a domain of a group's counts or owners, keeping nonEmpty and the journal. */
  private change(t: TopologyGroup, map: Map<string, number>, domain: string, times: number): void {
    const before = map.get(domain) ?? 0;
    const after = before + times;
    if (after === 0) map.delete(domain);
    else map.set(domain, after);
    if (map === t.counts) {
      if (before === 0 && after > 0) t.nonEmpty++;
      else if (before > 0 && after === 0) t.nonEmpty--;
    }
    this.journal?.push({ group: t, map, domain, times });
  }

  private involvedIn(pods: readonly PodCount[]): readonly PodCount[] {
    return getOrAdd(this.involvedRuns, pods, () => pods.filter(({ group }) => this.involvement.has(group)));
  }

  /** Counts `times` pods of `group` placed on a node that now stands at `at`. */
  record(group: PodGroup, at: Placement, times = 1): void {
    const involved = this.involvement.get(group);
    if (involved === undefined) return;
    const domains = (t: TopologyGroup, all: boolean): readonly string[] => {
      if (t.domain === "hostname") return [at.host];
      const values = t.domain === "zone" ? at.zones : at.capacityTypes;
      // Spread and affinity count a pod only once its node is down to one domain; anti-affinity blocks them all.
      return all || values.length === 1 ? values : [];
    };
    for (const t of involved.counting) for (const d of domains(t, t.kind === "anti-affinity")) this.change(t, t.counts, d, times);
    for (const t of involved.owning) for (const d of domains(t, true)) this.change(t, t.owners, d, times);
  }

  /**
   * The placement a pod of `group`, with these constraints and required (`strict`) requirements, may take on a
   * node at `at`: its zones and capacity types narrowed by every constraint, or why none is left.
   */
  addRequirements<C extends string>(
    group: PodGroup,
    constraints: readonly PodConstraint[],
    strict: readonly Requirement[],
    at: Placement<C>,
  ): FitOrReason<Placement<C>> {
    const repelling = this.involvement.get(group)?.repelling ?? NONE;
    if (constraints.length === 0 && repelling.length === 0) return fitWith(at);
    let { zones, capacityTypes } = at;
    const self = (t: TopologyGroup) => (this.counts(group, t) ? 1 : 0);
    for (const c of constraints) {
      const t = this.groupOf(c);
      if (t === undefined) continue;
      if (t.domain === "hostname") {
        const allowed = allowsHost(t, self(t), at.host);
        if (!allowed.ok) return allowed;
        continue;
      }
      const key = t.domain === "zone" ? LABEL.zone : LABEL.capacityType;
      const podDomains = strict.filter((r) => r.key === key).reduce<readonly string[]>((left, r) => allowedValues(left, r), t.universe);
      if (t.domain === "zone") {
        const next = nextDomains(t, self(t), zones, podDomains);
        if (!next.ok) return next;
        zones = next.value;
      } else {
        const next = nextDomains(t, self(t), capacityTypes, podDomains);
        if (!next.ok) return next;
        capacityTypes = next.value;
      }
    }
    for (const t of repelling) {
      const free = (d: string) => (t.owners.get(d) ?? 0) === 0;
      if (t.domain === "hostname") {
        if (!free(at.host)) return refuse(`${t.description} (of another workload): the node has a pod that repels this one`);
        continue;
      }
      const repelled = () => refuse(`${t.description} (of another workload): every ${t.domain} the node could use has a pod that repels this one`);
      if (t.domain === "zone") {
        zones = zones.filter(free);
        if (zones.length === 0) return repelled();
      } else {
        capacityTypes = capacityTypes.filter(free);
        if (capacityTypes.length === 0) return repelled();
      }
    }
    return fitWith({ host: at.host, zones, capacityTypes });
  }
}
