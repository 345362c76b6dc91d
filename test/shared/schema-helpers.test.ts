import { z } from "zod";
import { strictObject, withChecks } from "../../src/shared/schema-helpers";

const item = strictObject({ name: z.string().min(1, { error: "empty name" }), size: z.number().max(9, { error: "too big" }).default(1) });
const fields = strictObject({ items: z.array(item), limit: z.number().int({ error: "not an integer" }) });

/** "path: message" for each problem, in the order zod reports them. */
const problems = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("withChecks", () => {
  const checked = withChecks(fields, [
    {
      reads: ["items.*.name"],
      check: ({ items }, report) => {
        items.forEach((it, i) => {
          if (it.name === "reserved") report(["items", i, "name"], it.name, "is reserved");
        });
      },
    },
    {
      reads: ["items.*.size", "limit"],
      check: ({ items, limit }, report) => {
        const total = items.reduce((sum, it) => sum + it.size, 0);
        if (total > limit) report(["limit"], limit, `is below the total size ${total}`);
      },
    },
  ]);

  it("runs a check on typed, defaulted values when a field it does not read is wrong", () => {
    expect(problems(checked, { items: [{ name: "reserved", size: 99 }, { name: "b" }], limit: 0 })).toEqual([
      "items.0.size: too big",
      "items.0.name: is reserved",
    ]);
  });

  it("skips a check when a field it reads failed its own rule, anywhere in a list", () => {
    expect(problems(checked, { items: [{ name: "a" }, { name: "b", size: 99 }], limit: 1.5 })).toEqual(["items.1.size: too big", "limit: not an integer"]);
    // The default size (1) of both items is what the second check adds up.
    expect(problems(checked, { items: [{ name: "a" }, { name: "b" }], limit: 1 })).toEqual(["limit: is below the total size 2"]);
  });

  it("does not let one check's problem stop another check reading the same field", () => {
    const twice = withChecks(fields, [
      { reads: ["limit"], check: ({ limit }, report) => (limit > 5 ? report(["limit"], limit, "is over 5") : undefined) },
      { reads: ["limit"], check: ({ limit }, report) => (limit % 2 === 0 ? report(["limit"], limit, "is even") : undefined) },
    ]);
    expect(problems(twice, { items: [], limit: 8 })).toEqual(["limit: is over 5", "limit: is even"]);
  });

  it("places an unknown key at the key: a misspelt top-level key does not silence the checks", () => {
    expect(problems(checked, { items: [{ name: "reserved" }], limit: 5, limt: 5 })).toEqual([
      ": is not a known key; allowed keys: items, limit (did you mean limit?)",
      "items.0.name: is reserved",
    ]);
    // Nor does one beside the field a check reads.
    expect(problems(checked, { items: [{ name: "reserved", colour: "red" }], limit: 5 })).toEqual([
      "items.0: is not a known key; allowed keys: name, size",
      "items.0.name: is reserved",
    ]);
  });

  it("skips a check when the whole list it reads is of the wrong type", () => {
    expect(problems(checked, { items: "none", limit: 0 })).toEqual(["items: Invalid input: expected array, received string"]);
  });
});
