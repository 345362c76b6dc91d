import * as fs from "node:fs";
import * as path from "node:path";

// The house rules of docs/architecture.md: imports go one way, stacks → constructs → domain → shared, the
// Lambda runtime is a program of its own, and no source file outgrows one concept.

const ROOT = path.join(__dirname, "..", "..");
const SRC = path.join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

const FILES = [path.join(ROOT, "main.ts"), ...sourceFiles(SRC)];
const rel = (file: string) => path.relative(ROOT, file);

/** Every module a file imports: static imports and exports, dynamic imports and requires. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s+)["']([^"']+)["']/gm)].map((m) => m[1]);
  return [...new Set(specifiers)];
}

/** The local file an import resolves to, or undefined for a package. */
function resolveLocal(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, "index.ts")].find((candidate) => fs.existsSync(candidate)) ?? `${base}.ts`;
}

const CONSTRUCT_PACKAGES = /^(cdktf|constructs|@cdktf\/)/;
const isGenerated = (file: string) => rel(file).startsWith(".gen/");

const LAYERS = ["shared", "domain", "construct", "stack", "entry point"] as const;
type Layer = (typeof LAYERS)[number];

/**
 * A file's layer: main.ts is the entry point, src/stacks composes, src/shared is the ground floor; elsewhere a
 * file that creates Terraform resources (imports cdktf, constructs, a provider or the generated bindings) is
 * a construct, and every other file is pure domain logic.
 */
function layerOf(file: string): Layer {
  const name = rel(file);
  if (name === "main.ts") return "entry point";
  if (name.startsWith("src/stacks/")) return "stack";
  if (name.startsWith("src/shared/")) return "shared";
  const imports = importsOf(file);
  const createsResources = imports.some((s) => CONSTRUCT_PACKAGES.test(s) || s.includes(".gen/"));
  return createsResources ? "construct" : "domain";
}

const RUNTIME = "src/lambda-coredns/runtime/";

describe("imports go one way", () => {
  const edges = FILES.flatMap((file) =>
    importsOf(file).flatMap((specifier) => {
      const target = resolveLocal(file, specifier);
      return target === undefined || isGenerated(target) ? [] : [{ from: file, to: target }];
    }),
  );

  it("finds the files it checks (a guard against passing on nothing)", () => {
    expect(FILES.length).toBeGreaterThan(60);
    expect(edges.length).toBeGreaterThan(150);
    expect(new Set(FILES.map(layerOf))).toEqual(new Set(LAYERS));
  });

  it("never imports a file of a higher layer", () => {
    const upward = edges
      .filter(({ from, to }) => LAYERS.indexOf(layerOf(to)) > LAYERS.indexOf(layerOf(from)))
      .map(({ from, to }) => `${rel(from)} (${layerOf(from)}) imports ${rel(to)} (${layerOf(to)})`);
    expect(upward).toEqual([]);
  });

  it("keeps the Lambda runtime self-contained: it is bundled and deployed on its own", () => {
    const leaving = edges
      .filter(({ from, to }) => rel(from).startsWith(RUNTIME) && !rel(to).startsWith(RUNTIME))
      .map(({ from, to }) => `${rel(from)} → ${rel(to)}`);
    const entering = edges
      .filter(({ from, to }) => !rel(from).startsWith(RUNTIME) && rel(to).startsWith(RUNTIME))
      .map(({ from, to }) => `${rel(from)} → ${rel(to)}`);
    expect({ leaving, entering }).toEqual({ leaving: [], entering: [] });
  });

  it("has no import cycles", () => {
    const graph = new Map<string, string[]>();
    for (const { from, to } of edges) graph.set(rel(from), [...(graph.get(rel(from)) ?? []), rel(to)]);
    const cycles: string[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (node: string, trail: string[]) => {
      if (state.get(node) === "done") return;
      if (state.get(node) === "visiting") {
        cycles.push([...trail.slice(trail.indexOf(node)), node].join(" → "));
        return;
      }
      state.set(node, "visiting");
      for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
      state.set(node, "done");
    };
    for (const node of graph.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });
});

describe("one concept per file", () => {
  it("keeps every source file within about 300 lines", () => {
    const long = FILES.map((file) => ({ file: rel(file), lines: fs.readFileSync(file, "utf8").split("\n").length })).filter((f) => f.lines > 320);
    expect(long).toEqual([]);
  });
});

describe("the planner's floors", () => {
  // Within src/planner, each room imports only rooms below it: data and the model at the bottom, then
  // workloads, the simulation, consolidation (which re-runs the simulation), the plan and a running cluster's
  // state, the renderers and the replay (the plan's simulation on a clock) on top. The catalogue builder and the
  // live fetch are tools beside consolidation: they share its floor and never import each other.
  const FLOORS: Readonly<Record<string, number>> = {
    data: 0,
    "model.ts": 0,
    workload: 1,
    simulation: 2,
    consolidation: 3,
    catalogue: 3,
    live: 3,
    plan: 4,
    state: 4,
    render: 5,
    replay: 5,
    bench: 6,
  };
  const roomOf = (file: string) => {
    const inPlanner = path.relative(path.join(SRC, "planner"), file);
    return inPlanner.startsWith("..") ? undefined : inPlanner.split(path.sep)[0];
  };
  const plannerEdges = FILES.flatMap((file) =>
    importsOf(file).flatMap((specifier) => {
      const target = resolveLocal(file, specifier);
      const [from, to] = [roomOf(file), target === undefined ? undefined : roomOf(target)];
      return from === undefined || to === undefined || from === to || FLOORS[from] === undefined || FLOORS[to] === undefined ? [] : [{ file, from, to }];
    }),
  );

  it("finds the imports between rooms it checks", () => {
    expect(plannerEdges.length).toBeGreaterThan(20);
  });

  it("never imports a room on its own floor or above", () => {
    const upward = plannerEdges.filter(({ from, to }) => FLOORS[to] >= FLOORS[from]).map(({ file, to }) => `${rel(file)} imports planner/${to}`);
    expect(upward).toEqual([]);
  });
});
