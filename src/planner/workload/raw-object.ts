// Reading untyped YAML: a mapping as it came from the parser, and how a reader reports what is wrong in it.

export type Raw = Record<string, unknown>;

export const isRecord = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

/** Reports one problem: where (a field path), the value found, and what is allowed. */
export type Report = (path: string, value: unknown, message: string) => void;

/** The value at a path of keys, or undefined where the path leaves the mappings. */
export function at(object: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((value, key) => (isRecord(value) ? value[key] : undefined), object);
}
