import { z } from "zod";
import { clusterConfigSchema } from "../../src/config/cluster-schema";
import { checkReads, strictObject, withChecks } from "../../src/shared/schema-helpers";

// A cross-field check runs once the fields it `reads` are valid, and it names them by string. A path that is not
// a field of the schema the check is attached to never matches a problem, so after a rename the check would run
// on a value it cannot trust, or never be held back: every path is held to the schema here.

/** The schemas one level inside `schema`, with the path segment each is reached by ("*": a list item or map value). */
function inside(schema: z.core.$ZodType): readonly { readonly segment: string | undefined; readonly schema: z.core.$ZodType }[] {
  if (schema instanceof z.ZodObject) return Object.entries(schema.shape).map(([key, field]) => ({ segment: key, schema: field }));
  if (schema instanceof z.ZodArray) return [{ segment: "*", schema: schema.element }];
  if (schema instanceof z.ZodRecord) return [{ segment: "*", schema: schema.valueType }];
  // Wrappers and alternatives: the same place in the document.
  if (schema instanceof z.ZodUnion) return schema.options.map((option) => ({ segment: undefined, schema: option }));
  if (schema instanceof z.ZodPipe) return [{ segment: undefined, schema: schema.in }];
  if (schema instanceof z.ZodIntersection) return [schema.def.left, schema.def.right].map((side) => ({ segment: undefined, schema: side }));
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodReadonly ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodNonOptional ||
    schema instanceof z.ZodCatch
  )
    return [{ segment: undefined, schema: schema.def.innerType }];
  if (schema instanceof z.ZodLazy) return [{ segment: undefined, schema: schema.unwrap() }];
  return [];
}

/** Whether `path` ("nodeClasses.*.amiAlias") leads to a field of `schema`. */
function resolves(schema: z.core.$ZodType, path: readonly string[], seen = new Set<z.core.$ZodType>()): boolean {
  if (path.length === 0) return true;
  if (seen.has(schema)) return false;
  const next = new Set(seen).add(schema);
  return inside(schema).some(({ segment, schema: child }) =>
    segment === undefined ? resolves(child, path, next) : segment === path[0] && resolves(child, path.slice(1), new Set()),
  );
}

interface Read {
  /** Where the checked schema sits in a cluster file ("network", "nodePools.*"); "" for the file itself. */
  readonly at: string;
  readonly path: string;
  readonly found: boolean;
}

/** Every path every check below `schema` reads, with whether it is a field of the schema the check is on. */
function readsBelow(schema: z.core.$ZodType, at: string, visited = new Set<z.core.$ZodType>()): Read[] {
  if (visited.has(schema)) return [];
  visited.add(schema);
  const own = checkReads(schema).map((path) => ({ at, path, found: resolves(schema, path.split(".")) }));
  return [
    ...own,
    ...inside(schema).flatMap(({ segment, schema: child }) =>
      readsBelow(child, segment === undefined ? at : at === "" ? segment : `${at}.${segment}`, visited),
    ),
  ];
}

describe("cross-field checks read fields that exist", () => {
  const reads = readsBelow(clusterConfigSchema, "");

  it("finds the checks of every section (a guard against passing on nothing)", () => {
    const sections = new Set(reads.map((r) => r.at.split(".")[0]));
    expect(sections).toEqual(new Set(["", "network", "cluster", "access", "fargate", "coreDns", "nodeClasses", "nodePools", "backend"]));
    expect(reads.length).toBeGreaterThanOrEqual(50);
  });

  it("holds every path a check reads to the schema the check is attached to", () => {
    expect(reads.filter((r) => !r.found).map((r) => `${r.at || "(file)"}: ${r.path}`)).toEqual([]);
  });

  it("fails a check that reads a renamed field, at any depth and through lists and maps", () => {
    const schema = withChecks(strictObject({ pools: z.array(strictObject({ zones: z.record(z.string(), z.string()).optional() })).default([]) }), [
      { reads: ["pools.*.zones.*", "pools.*.zone", "pool"], check: () => undefined },
    ]);
    expect(readsBelow(schema, "").map((r) => [r.path, r.found])).toEqual([
      ["pools.*.zones.*", true],
      ["pools.*.zone", false],
      ["pool", false],
    ]);
  });
});
