import { COREDNS_RESOURCES } from "./addon-settings";

// An add-on's `configuration_values`: what the config gives, merged with what this project sets itself. Some
// project values are required for the cluster to work (CoreDNS on Fargate, Windows IPAM): a config value that
// disagrees is refused. Others are defaults the config may override (CoreDNS's resources). The JSON's key order
// does not depend on the YAML's, so a reordered mapping synthesizes the same bytes and a plan shows no change.

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { readonly [key: string]: Json };

/** What the project sets in one add-on's configuration, and why. */
export interface ProjectValues {
  /** Values the cluster needs; a config value that differs is refused. */
  readonly required: JsonObject;
  /** Values the config may override. */
  readonly defaults: JsonObject;
  /** Why the required values are there, for the refusal. */
  readonly why: string;
}

const NONE: ProjectValues = { required: {}, defaults: {}, why: "" };

/** What the project puts in each add-on's configuration. */
export function projectAddonValues(addon: string, context: { readonly windowsNodes: boolean }): ProjectValues {
  if (addon === "coredns") {
    return {
      required: { computeType: "fargate" },
      defaults: { resources: COREDNS_RESOURCES },
      why: "CoreDNS runs on Fargate: the cluster has no node until Karpenter launches one, and Karpenter needs DNS",
    };
  }
  if (addon === "vpc-cni" && context.windowsNodes) {
    // The add-on owns the amazon-vpc-cni ConfigMap where the VPC resource controller reads this switch:
    // written there by hand it would be overwritten at the add-on's next update (aws/containers-roadmap#2341).
    // @see https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html
    return {
      required: { enableWindowsIpam: "true" },
      defaults: {},
      why: "a Windows node class needs the VPC resource controller's Windows IPAM, which the vpc-cni add-on switches on",
    };
  }
  return NONE;
}

/** A JSON object (not an array, not null). */
export const isObject = (value: Json | undefined): value is { [key: string]: Json } => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `config` laid over `project`, objects merged key by key, anything else in `config` replacing. The order is
 * stable whatever the YAML's: the project's keys in the order it declares them (so a cluster without
 * configurationValues keeps the bytes it always had), then the config's own keys, sorted.
 */
function layer(project: Json | undefined, config: Json | undefined): Json | undefined {
  if (config === undefined) return project;
  if (!isObject(config)) return config;
  const base = isObject(project) ? project : {};
  const keys = [
    ...Object.keys(base),
    ...Object.keys(config)
      .filter((key) => !(key in base))
      .sort(),
  ];
  return Object.fromEntries(keys.map((key) => [key, layer(base[key], config[key]) as Json]));
}

/** The same value with every object's keys sorted, to compare values whatever their order. */
function sorted(value: Json): Json {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}

/** Where the config's values disagree with the project's required ones, each with the path below the configuration. */
export function configurationConflicts(
  config: JsonObject | undefined,
  project: ProjectValues,
): { readonly path: readonly string[]; readonly value: Json; readonly message: string }[] {
  const conflicts: { path: string[]; value: Json; message: string }[] = [];
  const walk = (required: Json, given: Json | undefined, path: string[]) => {
    if (given === undefined) return;
    if (isObject(required) && isObject(given)) {
      for (const [key, value] of Object.entries(required)) walk(value, given[key], [...path, key]);
      return;
    }
    // "Fargate" is AWS's spelling of what this project writes "fargate": strings compare regardless of case.
    const same =
      typeof required === "string" && typeof given === "string"
        ? required.toLowerCase() === given.toLowerCase()
        : JSON.stringify(sorted(required)) === JSON.stringify(sorted(given));
    if (!same) {
      conflicts.push({ path, value: given, message: `conflicts with the ${JSON.stringify(required)} this project sets: ${project.why}; remove it` });
    }
  };
  walk(project.required, config, []);
  return conflicts;
}

/**
 * The configuration_values JSON: the project's values, with the config's over them (a config value that
 * disagrees with a required one is refused before synth gets here); undefined when empty. Required values and
 * defaults never share a key.
 */
export function configurationJson(config: JsonObject | undefined, project: ProjectValues): string | undefined {
  const merged = layer({ ...project.required, ...project.defaults }, config);
  return isObject(merged) && Object.keys(merged).length > 0 ? JSON.stringify(merged) : undefined;
}

/**
 * Whether the vpc-cni configuration switches on an `env` setting: the add-on's schema takes env values as
 * strings, so only "true" does.
 */
export function vpcCniEnvEnabled(config: JsonObject | undefined, name: string): boolean {
  const env = config?.env;
  return isObject(env) && env[name] === "true";
}

/**
 * Every add-on configuration a config gives, with the config path it sits at: the `addons` section's, and
 * CoreDNS's, which the `coreDns` section holds.
 */
export function configuredAddons(config: {
  readonly addons: Readonly<Record<string, { readonly configurationValues?: JsonObject } | undefined>>;
  readonly coreDns: { readonly configurationValues?: JsonObject };
}): { readonly path: readonly string[]; readonly addon: string; readonly values?: JsonObject }[] {
  return [
    ...Object.entries(config.addons).map(([addon, settings]) => ({
      path: ["addons", addon, "configurationValues"],
      addon,
      values: settings?.configurationValues,
    })),
    { path: ["coreDns", "configurationValues"], addon: "coredns", values: config.coreDns.configurationValues },
  ];
}
