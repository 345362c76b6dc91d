import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { configJsonSchema } from "../../src/config/configuration-reference";
import { parseClusterConfig } from "../../src/config/load-config";
import { formatPath } from "../../src/shared/format-issues";
import { InputError } from "../../src/shared/input-error";
import { readStack, synthApp } from "../helpers/synth-app";
import { testFolder } from "../helpers/test-folder";
import { describeWithTerraform, terraform, terraformEnv } from "../terraform/terraform-cli";

// Terraform reads every string of its JSON as a template: `${...}` is an expression, `%{...}` a directive. Each
// string field of the config schema gets both in turn. Where the field's rules refuse them, the refusal is the
// field's own line; where they accept them, real Terraform evaluates every string of the synthesized stacks
// that carries one, and must give back the literal text the user wrote.

const FIXTURES = path.join(__dirname, "..", "config", "fixtures");
const FIXTURE_FILES = ["every-string-field-new-vpc.yaml", "every-string-field-existing-vpc.yaml"];

// ---------------------------------------------------------------------------------------------------------
// The schema's string fields, and where the fixtures hold them

/** One step of a field's path: a property, any list item, any map value, any map key, anything below. */
type Step = { readonly property: string } | "item" | "value" | "key" | "anything";

interface JsonSchema {
  readonly type?: string;
  readonly enum?: unknown;
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchema[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly items?: JsonSchema;
  readonly additionalProperties?: JsonSchema | boolean;
}

/** Every place of the schema a user writes free text: string fields, map keys, and values of any type. */
function stringFields(schema: JsonSchema, prefix: readonly Step[] = []): Step[][] {
  const found: Step[][] = [];
  const visit = (s: JsonSchema, at: readonly Step[]) => {
    for (const option of s.anyOf ?? []) visit(option, at);
    if (s.type === "string" && s.enum === undefined && s.const === undefined) found.push([...at]);
    if (s.type === undefined && s.anyOf === undefined && s.enum === undefined && s.const === undefined) found.push([...at, "anything"]);
    for (const [name, property] of Object.entries(s.properties ?? {})) visit(property, [...at, { property: name }]);
    if (s.items !== undefined) visit(s.items, [...at, "item"]);
    if (typeof s.additionalProperties === "object") {
      found.push([...at, "key"]);
      visit(s.additionalProperties, [...at, "value"]);
    }
  };
  visit(schema, prefix);
  // A field reached through two options of a union is one field.
  return [...new Map(found.map((f) => [fieldName(f), f])).values()];
}

const fieldName = (steps: readonly Step[]) =>
  steps.map((s) => (typeof s === "object" ? `.${s.property}` : s === "item" ? "[]" : s === "value" ? "{*}" : s === "key" ? "{key}" : "{...}")).join("");

/** A place in a fixture: the path to a string, or to a map key (`key` set). */
interface Location {
  readonly path: readonly (string | number)[];
  readonly key?: string;
  readonly original: string;
}

/** The fixture's strings at a field's steps. */
function locate(value: unknown, steps: readonly Step[], at: readonly (string | number)[] = []): Location[] {
  if (steps.length === 0) return typeof value === "string" ? [{ path: at, original: value }] : [];
  const [step, ...rest] = steps;
  if (step === "anything") return allStrings(value, at);
  if (typeof step === "object") {
    return isMapping(value) && step.property in value ? locate(value[step.property], rest, [...at, step.property]) : [];
  }
  if (step === "item") return Array.isArray(value) ? value.flatMap((item, i) => locate(item, rest, [...at, i])) : [];
  if (!isMapping(value)) return [];
  if (step === "key") return Object.keys(value).map((key) => ({ path: at, key, original: key }));
  return Object.entries(value).flatMap(([key, item]) => locate(item, rest, [...at, key]));
}

function allStrings(value: unknown, at: readonly (string | number)[]): Location[] {
  if (typeof value === "string") return [{ path: at, original: value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => allStrings(item, [...at, i]));
  if (isMapping(value)) return Object.entries(value).flatMap(([key, item]) => allStrings(item, [...at, key]));
  return [];
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------------------
// Probes

/** What the test appends to a field: both template openings, and a name that finds it again. */
const probe = (n: number) => `\${aeks_probe_${n}}%{aeks_probe_${n}}`;

/** The fixture with one string (or map key) given the probe. */
function withProbe(fixture: unknown, location: Location, n: number): unknown {
  const copy = structuredClone(fixture);
  const parent = location.key === undefined ? location.path.slice(0, -1) : location.path;
  let holder = copy as Record<string | number, unknown>;
  for (const step of parent) holder = holder[step] as Record<string | number, unknown>;
  if (location.key !== undefined) {
    const entries = Object.entries(holder).map(([k, v]): [string, unknown] => [k === location.key ? `${k}${probe(n)}` : k, v]);
    for (const k of Object.keys(holder)) delete holder[k];
    Object.assign(holder, Object.fromEntries(entries));
  } else {
    holder[location.path[location.path.length - 1]] = `${location.original}${probe(n)}`;
  }
  return copy;
}

/** Where a location's problem is reported: the string's path, or the map key's. */
const problemPath = (location: Location, n: number) =>
  formatPath(location.key === undefined ? location.path : [...location.path, `${location.key}${probe(n)}`]);

function problemsOf(document: unknown): readonly string[] {
  try {
    parseClusterConfig(document, "literal.yaml");
    return [];
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------------

const fixtures = FIXTURE_FILES.map((file) => ({ file, document: parse(fs.readFileSync(path.join(FIXTURES, file), "utf8")) as unknown }));
const fields = stringFields(configJsonSchema());

interface Probed {
  readonly field: string;
  readonly fixture: string;
  readonly location: Location;
  readonly n: number;
  readonly problems: readonly string[];
}

let counter = 0;
const probed: Probed[] = fixtures.flatMap(({ file, document }) =>
  fields.flatMap((steps) =>
    locate(document, steps).map((location) => {
      const n = ++counter;
      return { field: fieldName(steps), fixture: file, location, n, problems: problemsOf(withProbe(document, location, n)) };
    }),
  ),
);
const accepted = probed.filter((p) => p.problems.length === 0);

/**
 * A fixture with every accepted probe at once: strings first, then map keys, deepest first, so that renaming a
 * key never moves what is still to be probed below it.
 */
function withAllAccepted(file: string, document: unknown): unknown {
  const mine = accepted.filter((p) => p.fixture === file);
  const order = (p: Probed) => (p.location.key === undefined ? -1 : 1000 - p.location.path.length);
  return [...mine].sort((a, b) => order(a) - order(b)).reduce<unknown>((doc, p) => withProbe(doc, p.location, p.n), document);
}
const refused = probed.filter((p) => p.problems.length > 0);

describe("every string field of the config, given ${ and %{", () => {
  it("is held by a fixture: a new string field needs a value there", () => {
    expect(fields.length).toBeGreaterThan(90);
    const held = new Set(probed.map((p) => p.field));
    expect(fields.map(fieldName).filter((f) => !held.has(f))).toEqual([]);
  });

  it("is either refused with the field's own rule, at the field, or accepted", () => {
    // Both kinds must occur, or the test checks nothing on one side.
    expect(refused.length).toBeGreaterThan(30);
    expect(accepted.length).toBeGreaterThan(15);
    for (const p of refused) {
      const at = problemPath(p.location, p.n);
      const lines = p.problems.filter((line) => line.startsWith(`${at}: `));
      expect({ field: p.field, lines: lines.length > 0 ? "at the field" : p.problems }).toEqual({ field: p.field, lines: "at the field" });
      // The field's rule, not zod's stand-in ("Invalid input").
      for (const line of lines) expect(line).not.toMatch(/Invalid (input|string)/);
    }
  });

  it("accepted, is accepted together (so one synth shows them all)", () => {
    for (const { file, document } of fixtures) expect(problemsOf(withAllAccepted(file, document))).toEqual([]);
  });
});

describeWithTerraform("every accepted ${ and %{ under real Terraform", () => {
  it("reaches the stacks as the literal text the user wrote, in every string Terraform evaluates", () => {
    const found = new Map<number, string[]>();
    const strings: string[] = [];
    for (const { file, document } of fixtures) {
      const outdir = synthApp(parseClusterConfig(withAllAccepted(file, document), file));
      for (const stack of ["literal-cluster", "literal-karpenter"]) {
        const json = readStack(outdir, stack);
        JSON.stringify(json, (key, value) => {
          if (key.includes("aeks_probe_")) strings.push(key);
          if (typeof value === "string" && value.includes("aeks_probe_")) strings.push(value);
          return value;
        });
      }
    }
    // Every string that carries a probe, evaluated by Terraform as it evaluates the stacks' own.
    const folder = testFolder("literal-text");
    const outputs = Object.fromEntries(strings.map((text, i) => [`s${i}`, { value: text }]));
    fs.writeFileSync(path.join(folder, "main.tf.json"), JSON.stringify({ output: outputs }));
    const env = terraformEnv(folder);
    const apply = terraform(["apply", "-auto-approve", "-input=false"], folder, env);
    expect({ status: apply.status, output: apply.status === 0 ? "" : apply.output }).toEqual({ status: 0, output: "" });
    const evaluated = JSON.parse(terraform(["output", "-json"], folder, env).output) as Record<string, { value: string }>;
    for (const { value } of Object.values(evaluated)) {
      for (const [, n] of value.matchAll(/aeks_probe_(\d+)/g)) found.set(Number(n), [...(found.get(Number(n)) ?? []), value]);
    }
    // The fixture's own shell text, as written: an expression, an escape and a directive of its own.
    expect(Object.values(evaluated).some(({ value }) => value.includes('echo "${HOSTNAME} $${NOT_EXPANDED} %{ if x }"'))).toBe(true);
    for (const p of accepted) {
      const texts = found.get(p.n) ?? [];
      // Reached Terraform, and every string holding it holds the text as written.
      expect({ field: p.field, reached: texts.length > 0 }).toEqual({ field: p.field, reached: true });
      for (const text of texts) expect({ field: p.field, literal: text.includes(probe(p.n)) }).toEqual({ field: p.field, literal: true });
    }
  });
});
