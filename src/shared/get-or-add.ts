// One way to look a value up and work it out only the first time: the caches the planner keeps per node, per pod
// group and per budget list.

interface MapLike<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/** The value stored for `key`, made and stored first when there is none. */
export function getOrAdd<K, V>(map: MapLike<K, V>, key: K, make: () => V): V {
  const known = map.get(key);
  if (known !== undefined) return known;
  const made = make();
  map.set(key, made);
  return made;
}
