import { type InstanceCatalogue, type InstanceType, labelsFor, type NameKind } from "../instance-catalogue/instance-catalogue";
import type { Requirement } from "../instance-catalogue/requirements";
import type { FieldCheck, IssuePath, Report } from "../shared/schema-helpers";
import { LABEL } from "../shared/vocabulary/well-known-labels";
import { isWindowsNodeClass } from "./ami-selection";
import type { NodePoolConfig } from "./node-pool-schema";
import { instanceCategoriesOf, instanceCategoryOf, selectionRequirements } from "./pool-requirements";
import type { Provisioners } from "./provisioner-checks";
import { DEFAULT_MIN_GENERATION } from "./provisioner-defaults";

// Instance names in NodePools checked against the instance catalogue: a misspelled family or size gets a
// "did you mean", and a pool whose requirements no instance type satisfies is refused with the fields that
// exclude each other, before Karpenter would sit on it without launching a node. The catalogue is dated and
// AWS ships families after it: every message names its date and the two ways through.

/** Raw requirement keys whose values are catalogue names. */
const NAME_KEYS: Readonly<Record<string, NameKind>> = {
  [LABEL.instanceCategory]: "category",
  [LABEL.instanceFamily]: "family",
  [LABEL.instanceSize]: "size",
  [LABEL.instanceType]: "type",
};

const KIND_WORDS: Readonly<Record<NameKind, string>> = {
  category: "instance category",
  family: "instance family",
  size: "instance size",
  type: "instance type",
};

function catalogueDate(catalogue: InstanceCatalogue): string {
  return catalogue.asOf.slice(0, 10);
}

/** The way through when AWS is ahead of the catalogue. */
function wayThrough(catalogue: InstanceCatalogue, region: string): string {
  return `if AWS launched it after the catalogue's date (${catalogueDate(catalogue)}), refresh the catalogue (npm run catalogue -- --live --region ${region}) or set allowUnknownInstances: true on this pool`;
}

/** A family with no near miss: the catalogue's families of the same category, newest generation first. */
function familiesLike(catalogue: InstanceCatalogue, name: string): string {
  const category = instanceCategoryOf(name);
  const families = catalogue
    .names("family")
    .filter((f) => instanceCategoryOf(f) === category)
    .map((f) => ({ f, generation: catalogue.typesOf("family", f)[0]?.generation ?? 0 }))
    .sort((a, b) => b.generation - a.generation || (a.f < b.f ? -1 : 1))
    .map(({ f }) => f);
  if (families.length === 0) return "";
  const shown = families.slice(0, 8);
  return `the catalogue's ${category} families, newest first: ${shown.join(", ")}${families.length > shown.length ? `, ... (${families.length} in all)` : ""}; `;
}

function checkName(catalogue: InstanceCatalogue, kind: NameKind, name: string, path: IssuePath, region: string, report: Report): void {
  if (catalogue.has(kind, name)) return;
  const suggestions = catalogue.suggest(kind, name);
  const through = wayThrough(catalogue, region);
  const hint =
    suggestions.length > 0
      ? `did you mean ${suggestions.join(", ")}? ${through.charAt(0).toUpperCase()}${through.slice(1)}`
      : `${kind === "family" ? familiesLike(catalogue, name) : ""}${through}`;
  report(path, name, `is not an ${KIND_WORDS[kind]} in the instance catalogue; ${hint}`);
}

/** Each instance name a pool writes, with where it sits. */
function namesOf(pool: NodePoolConfig, i: number): { kind: NameKind; name: string; path: IssuePath }[] {
  const listed = (kind: NameKind, field: "instanceCategories" | "instanceFamilies" | "instanceSizes") =>
    (pool[field] ?? []).map((name, k) => ({ kind, name, path: ["nodePools", i, field, k] as IssuePath }));
  const raw = pool.requirements.flatMap((r, j) => {
    const kind = NAME_KEYS[r.key];
    if (kind === undefined || (r.operator !== "In" && r.operator !== "NotIn")) return [];
    return (r.values ?? []).map((name, k) => ({ kind, name, path: ["nodePools", i, "requirements", j, "values", k] as IssuePath }));
  });
  return [...listed("category", "instanceCategories"), ...listed("family", "instanceFamilies"), ...listed("size", "instanceSizes"), ...raw];
}

/** A requirement of the pool and the words that name its field for the user. */
interface Constraint {
  readonly requirement: Requirement;
  readonly field: string;
}

function constraintsOf(pool: NodePoolConfig, windows: boolean): Constraint[] {
  const fieldOf: Readonly<Record<string, string>> = {
    [LABEL.arch]: `architectures [${pool.architectures.join(", ")}]`,
    [LABEL.os]: windows ? `the Windows node class ${pool.nodeClass} (Windows runs on amd64 only)` : `the node class ${pool.nodeClass} (Linux)`,
    [LABEL.instanceCategory]:
      pool.instanceCategories === undefined
        ? `the default instanceCategories [${instanceCategoriesOf(pool)?.join(", ")}]`
        : `instanceCategories [${pool.instanceCategories.join(", ")}]`,
    [LABEL.instanceFamily]: `instanceFamilies [${pool.instanceFamilies?.join(", ")}]`,
    [LABEL.instanceSize]: `instanceSizes [${pool.instanceSizes?.join(", ")}]`,
    [LABEL.instanceGeneration]: `minGeneration ${pool.minGeneration}`,
  };
  const generated = selectionRequirements(pool, windows ? "windows" : "linux")
    .filter((r) => fieldOf[r.key] !== undefined)
    .map((requirement) => ({ requirement, field: fieldOf[requirement.key] }));
  const raw = pool.requirements.map((requirement, j) => ({
    requirement,
    field: `requirements[${j}] (${requirement.key} ${requirement.operator}${requirement.values ? ` ${requirement.values.join(", ")}` : ""})`,
  }));
  return [...generated, ...raw];
}

/**
 * Why no type matches, in the pool's own words: a constraint whose removal alone would let some type through,
 * with the others it cannot be satisfied together with; failing that, all of them.
 */
function conflict(catalogue: InstanceCatalogue, constraints: readonly Constraint[], windows: boolean): string {
  const matches = (chosen: readonly Constraint[]) => {
    // Without the OS constraint the types are the Linux ones; with Windows, amd64 ones labelled windows.
    const os = windows && chosen.some((c) => c.requirement.key === LABEL.os) ? "windows" : "linux";
    return (
      catalogue.matching(
        chosen.map((c) => c.requirement),
        { os },
      ).length > 0
    );
  };
  for (const culprit of constraints) {
    if (!matches(constraints.filter((c) => c !== culprit))) continue;
    const partners = constraints.filter((other) => other !== culprit && !matches([culprit, other]));
    if (partners.length > 0) return `${culprit.field} together with ${partners.map((p) => p.field).join(", ")}`;
  }
  return constraints.map((c) => c.field).join(", ");
}

/**
 * A pool that names no instance and keeps the default categories and generation (c, m, r of generation 3
 * and later) matches types for either architecture and OS (Windows pools are held to amd64 elsewhere); a
 * test holds this against the catalogue. Such pools leave it unread, so the default synth never loads it.
 */
export function picksByDefaultsOnly(pool: NodePoolConfig): boolean {
  return (
    pool.instanceCategories === undefined &&
    pool.instanceFamilies === undefined &&
    pool.instanceSizes === undefined &&
    pool.requirements.length === 0 &&
    pool.minGeneration <= DEFAULT_MIN_GENERATION
  );
}

/**
 * Karpenter launches only when the NodeClaim's instance types hold at least `minValues` distinct values of the
 * key (InstanceTypes.SatisfiesMinValues), and under its default policy (Strict) a pool that cannot never
 * launches. The types the catalogue says the pool admits are the most any launch could choose from, so fewer
 * values among them than minValues can never be met, whatever the operator (Exists included).
 * @see https://karpenter.sh/docs/concepts/nodepools/#min-values
 */
function reportUnreachableMinValues(
  catalogue: InstanceCatalogue,
  pool: NodePoolConfig,
  i: number,
  matching: readonly InstanceType[],
  windows: boolean,
  report: Report,
): void {
  pool.requirements.forEach((requirement, j) => {
    if (requirement.minValues === undefined || !catalogue.labelKeys.has(requirement.key)) return;
    // Fewer values listed than minValues is the CRD's own rule, reported with its message.
    if (requirement.operator === "In" && (requirement.values?.length ?? 0) < requirement.minValues) return;
    const values = [...new Set(matching.flatMap((t) => labelsFor(t, windows ? "windows" : "linux")[requirement.key] ?? []))].sort();
    if (values.length >= requirement.minValues) return;
    const shown = values.length <= 8 ? ` (${values.join(", ")})` : "";
    report(
      ["nodePools", i, "requirements", j, "minValues"],
      requirement.minValues,
      `can never be met: the instance types this pool admits have ${values.length} distinct values of ${requirement.key}${shown} in the catalogue of ${catalogueDate(catalogue)}, so Karpenter (minValues policy Strict, its default) would launch nothing; lower minValues to ${values.length} or widen the pool`,
    );
  });
}

/**
 * The checks, with the catalogue loaded on first use: by a synth with a pool that names instances or
 * narrows the defaults; a synth whose config fails earlier, or whose pools use the defaults, never reads it.
 */
export function instanceNameChecks(catalogue: () => InstanceCatalogue): readonly FieldCheck<Provisioners>[] {
  return [
    {
      // The fields read, not whole pools: a malformed limit in one pool does not hide a misspelt family in
      // another. A malformed field this check reads, in any pool, still stops it for all of them.
      reads: [
        "region",
        ...["name", "amiAlias", "amiSelectorTerms", "amiFamily"].map((field) => `nodeClasses.*.${field}`),
        ...[
          "name",
          "nodeClass",
          "allowUnknownInstances",
          "architectures",
          "capacityTypes",
          "instanceCategories",
          "instanceFamilies",
          "instanceSizes",
          "minGeneration",
          "zones",
          "requirements",
        ].map((field) => `nodePools.*.${field}`),
      ],
      check: ({ region, nodeClasses, nodePools }, report) => {
        nodePools.forEach((pool, i) => {
          if (pool.allowUnknownInstances || picksByDefaultsOnly(pool)) return;
          const unknown = namesOf(pool, i).filter(({ kind, name }) => !catalogue().has(kind, name));
          for (const { kind, name, path } of unknown) checkName(catalogue(), kind, name, path, region, report);
          if (unknown.length > 0) return;

          const nodeClass = nodeClasses.find((c) => c.name === pool.nodeClass);
          const windows = nodeClass !== undefined && isWindowsNodeClass(nodeClass);
          const constraints = constraintsOf(pool, windows);
          const matching = catalogue().matching(
            constraints.map((c) => c.requirement),
            { os: windows ? "windows" : "linux" },
          );
          if (matching.length > 0) {
            reportUnreachableMinValues(catalogue(), pool, i, matching, windows, report);
            return;
          }
          const types = catalogue().types.length.toLocaleString("en-US");
          report(
            ["nodePools", i],
            pool.name,
            `matches no instance type, so Karpenter would never launch a node for it: none of the catalogue's ${types} types satisfies ${conflict(catalogue(), constraints, windows)}; widen one of them, or, ${wayThrough(catalogue(), region)}`,
          );
        });
      },
    },
  ];
}
