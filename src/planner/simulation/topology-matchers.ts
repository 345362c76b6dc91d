import { selects } from "../workload/label-selector";
import type { LabelSelector, PodGroup } from "../workload/workload-model";
import type { TopologyGroup } from "./topology-group";

// Which topology groups count a pod group's pods: a group counts the pods its selector matches in its namespaces
// (and, for a matchLabelKeys on a label a controller adds, only its owner's own pods). A cluster of thousands of
// workloads has thousands of groups; trying each pod group against every group is quadratic, so each group is
// indexed by one label its selector requires, and a pod group is tried only against the groups that could match it.

interface Matcher {
  /** The order groups were added in: a pod group's groups come out in it. */
  readonly order: number;
  readonly group: TopologyGroup;
  readonly selector: LabelSelector;
  readonly namespaces: readonly string[] | "all";
  /** Only this pod group's pods count (matchLabelKeys on a label its template lacks). */
  readonly onlyOwner: PodGroup | undefined;
}

/** Namespaces a group counts pods in, "*" for all, in an index key. */
const ALL_NAMESPACES = "*";
const keyOf = (namespace: string, label: string, value: string) => `${namespace}\0${label}\0${value}`;

export class GroupMatchers {
  private count = 0;
  private readonly byLabel = new Map<string, Matcher[]>();
  /** Groups whose selector requires no label value (matchExpressions only, or every pod): tried against every pod group. */
  private readonly unindexed: Matcher[] = [];

  get size(): number {
    return this.count;
  }

  /** A group that counts the pods `selector` matches in `namespaces`; a group without a selector counts none. */
  add(group: TopologyGroup, selector: LabelSelector | undefined, namespaces: readonly string[] | "all", onlyOwner: PodGroup | undefined): void {
    if (selector === undefined) return;
    const matcher: Matcher = { order: this.count++, group, selector, namespaces, onlyOwner };
    const first = Object.entries(selector.matchLabels)[0];
    if (first === undefined) {
      this.unindexed.push(matcher);
      return;
    }
    for (const namespace of namespaces === "all" ? [ALL_NAMESPACES] : namespaces) {
      const key = keyOf(namespace, first[0], first[1]);
      const list = this.byLabel.get(key);
      if (list === undefined) this.byLabel.set(key, [matcher]);
      else list.push(matcher);
    }
  }

  /** The groups that count the pods of `pods`, in the order they were added. */
  matching(pods: PodGroup): TopologyGroup[] {
    const candidates = new Set<Matcher>(this.unindexed);
    for (const [label, value] of Object.entries(pods.labels)) {
      for (const namespace of [pods.namespace, ALL_NAMESPACES]) for (const m of this.byLabel.get(keyOf(namespace, label, value)) ?? []) candidates.add(m);
    }
    return [...candidates]
      .filter(
        (m) =>
          (m.namespaces === "all" || m.namespaces.includes(pods.namespace)) &&
          (m.onlyOwner === undefined || m.onlyOwner === pods) &&
          selects(m.selector, pods.labels),
      )
      .sort((a, b) => a.order - b.order)
      .map((m) => m.group);
  }
}
