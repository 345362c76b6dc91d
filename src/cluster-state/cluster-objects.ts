import { STATE_KINDS, type StateKindName } from "./state-kinds";

// A cluster's objects as the report reads them, wherever they came from (a running cluster, a state file,
// a saved snapshot): each kind's objects cut to what the report reads, and the kinds that could not be read.

/** A kind the source did not hold, and why: not installed, forbidden, or left out of a state file. */
export interface UnreadKind {
  readonly kind: StateKindName;
  readonly reason: string;
}

export interface ClusterObjects {
  /** Where they came from, for people: a file, or a cluster's API server and context. */
  readonly source: string;
  readonly byKind: Readonly<Record<StateKindName, Record<string, unknown>[]>>;
  readonly unread: readonly UnreadKind[];
  /** What was read but is worth saying: kinds skipped, keys repeated. */
  readonly warnings: readonly string[];
  /** The API server's version (GET /version), when read from a running cluster. */
  readonly serverVersion?: string;
}

export function emptyClusterObjects(source: string): ClusterObjects {
  const byKind = Object.fromEntries(STATE_KINDS.map((k) => [k.kind, []])) as unknown as Record<StateKindName, Record<string, unknown>[]>;
  return { source, byKind, unread: [], warnings: [] };
}
