import * as path from "node:path";
import { closestNames } from "../shared/closest-names";
import { projectRoot } from "../shared/project-root";
import { MIB } from "../shared/quantity";
import { LABEL } from "../shared/vocabulary/well-known-labels";
import type { Allocatable, InstanceCapacity } from "./allocatable";
import { type CatalogueFile, readCatalogueFile, type SpotPrices } from "./catalogue-file";
import { type Requirement, satisfiesAll } from "./requirements";

// The EC2 instance types Karpenter can launch, with their well-known labels, allocatable resources and
// on-demand prices: the planner's data, and what synth-time checks use to catch misspelled instance
// families, sizes and types ("did you mean") and NodePools whose requirements match nothing. Loading the
// committed catalogue takes a few milliseconds (gunzip, JSON.parse, one pass to build the indexes).

export interface InstanceType {
  readonly name: string;
  readonly family: string;
  readonly size: string;
  readonly category: string;
  readonly generation: number;
  /** amd64 or arm64. */
  readonly arch: string;
  readonly vcpu: number;
  readonly memoryMiB: number;
  /** Karpenter's well-known labels for this type (Linux AMIs; see labelsFor for Windows). */
  readonly labels: Readonly<Record<string, string>>;
  /** The inputs of Karpenter's allocatable computation (allocatable.ts). */
  readonly capacity: InstanceCapacity;
  /** Allocatable with the default kubelet on AL2023, as the source states it. */
  readonly allocatable: Allocatable;
  /** GPUs, Neuron devices, EFA and pod ENIs: present only when non-zero. */
  readonly extendedResources: Readonly<Record<string, number>>;
  /** USD per hour, Linux; undefined when the source has no price (Karpenter then never launches it). */
  readonly onDemandUsd: number | undefined;
}

export type NameKind = "type" | "family" | "size" | "category";

export interface InstanceCatalogue {
  readonly source: string;
  readonly asOf: string;
  readonly region: string;
  /** Sorted by name. */
  readonly types: readonly InstanceType[];
  /** The label keys an instance type can carry (the keys requirements can filter types on). */
  readonly labelKeys: ReadonlySet<string>;
  readonly spot: SpotPrices | undefined;
  type(name: string): InstanceType | undefined;
  /** Every family, size or category name, sorted. */
  names(kind: NameKind): readonly string[];
  has(kind: NameKind, name: string): boolean;
  /** The types of one family, size or category (a type name gives that type). */
  typesOf(kind: NameKind, name: string): readonly InstanceType[];
  /** Up to `limit` known names closest to a misspelled one ("m5.lagre" gives m5.large). */
  suggest(kind: NameKind, name: string, limit?: number): readonly string[];
  /**
   * The types whose labels satisfy every requirement on an instance-type label. Requirements on other keys
   * (capacity type, zone, a pool's own labels) do not filter types and are ignored here.
   */
  matching(requirements: readonly Requirement[], options?: { readonly os?: "linux" | "windows" }): readonly InstanceType[];
}

/**
 * The labels of a type under a node class's OS: Karpenter gives Windows nodes `kubernetes.io/os: windows`
 * on amd64 and no OS at all on arm64, so Windows pools never match Graviton types (types.go, getOS()).
 */
export function labelsFor(type: InstanceType, os: "linux" | "windows"): Readonly<Record<string, string>> {
  if (os === "linux") return type.labels;
  const { [LABEL.os]: _linux, ...rest } = type.labels;
  return type.arch === "amd64" ? { ...rest, [LABEL.os]: "windows" } : rest;
}

function buildType(file: CatalogueFile, row: CatalogueFile["types"][number]): InstanceType {
  const [name, values, [vcpu, memoryMiB, eniLimitedPods], [cpuMillis, allocatableMiB, pods], extended] = row;
  const labels: Record<string, string> = {};
  values.forEach((value, i) => {
    if (value !== null) labels[file.labelKeys[i]] = value;
  });
  const extendedResources: Record<string, number> = {};
  extended.forEach((count, i) => {
    if (count > 0) extendedResources[file.resourceKeys[i]] = count;
  });
  const arch = labels[LABEL.arch] ?? "amd64";
  return Object.freeze({
    name,
    family: labels[LABEL.instanceFamily] ?? name.split(".")[0],
    size: labels[LABEL.instanceSize] ?? name.split(".")[1] ?? "",
    category: labels[LABEL.instanceCategory] ?? "",
    generation: Number(labels[LABEL.instanceGeneration] ?? 0),
    arch,
    vcpu,
    memoryMiB,
    labels: Object.freeze(labels),
    capacity: Object.freeze({ vcpu, memoryMiB, arch, eniLimitedPods }),
    allocatable: Object.freeze({ cpuMillis, memoryBytes: allocatableMiB * MIB, pods }),
    extendedResources: Object.freeze(extendedResources),
    onDemandUsd: file.onDemandUsd[name],
  });
}

/** An in-memory catalogue from its file form (the committed one, a live fetch, or a test's). */
export function catalogueFrom(file: CatalogueFile): InstanceCatalogue {
  const types = file.types.map((row) => buildType(file, row)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byName = new Map(types.map((t) => [t.name, t]));
  const index: Record<NameKind, Map<string, InstanceType[]>> = { type: new Map(), family: new Map(), size: new Map(), category: new Map() };
  for (const t of types) {
    const keys: Record<NameKind, string> = { type: t.name, family: t.family, size: t.size, category: t.category };
    for (const kind of Object.keys(keys) as NameKind[]) {
      const list = index[kind].get(keys[kind]);
      if (list === undefined) index[kind].set(keys[kind], [t]);
      else list.push(t);
    }
  }
  const sortedNames = Object.fromEntries((Object.keys(index) as NameKind[]).map((kind) => [kind, [...index[kind].keys()].sort()])) as Record<
    NameKind,
    string[]
  >;
  const labelKeys = new Set(file.labelKeys);
  return Object.freeze({
    source: file.source,
    asOf: file.asOf,
    region: file.region,
    types,
    labelKeys,
    spot: file.spot,
    type: (name: string) => byName.get(name),
    names: (kind: NameKind) => sortedNames[kind],
    has: (kind: NameKind, name: string) => index[kind].has(name),
    typesOf: (kind: NameKind, name: string) => index[kind].get(name) ?? [],
    suggest: (kind: NameKind, name: string, limit = 3) => closestNames(name, sortedNames[kind], limit),
    matching: (requirements: readonly Requirement[], options: { readonly os?: "linux" | "windows" } = {}) => {
      const typeRequirements = requirements.filter((r) => labelKeys.has(r.key));
      return types.filter((t) => {
        const labels = labelsFor(t, options.os ?? "linux");
        return satisfiesAll((key) => labels[key], typeRequirements);
      });
    },
  });
}

/** Where the committed catalogue lives, from the project folder (`npm run catalogue` rewrites it). */
export const CATALOGUE_PATH = path.join("src", "instance-catalogue", "data", "instance-catalogue.json.gz");

/** The committed catalogue's absolute path. */
export function defaultCataloguePath(): string {
  return path.join(projectRoot(), CATALOGUE_PATH);
}

const loaded = new Map<string, InstanceCatalogue>();

/** Loads a catalogue once per process and path; the committed one by default. */
export function loadInstanceCatalogue(options: { readonly path?: string } = {}): InstanceCatalogue {
  const file = options.path ?? defaultCataloguePath();
  let catalogue = loaded.get(file);
  if (catalogue === undefined) {
    catalogue = catalogueFrom(readCatalogueFile(file));
    loaded.set(file, catalogue);
  }
  return catalogue;
}
