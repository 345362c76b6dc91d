import { closestNames } from "../shared/closest-names";
import { isObject, type Json, type JsonObject } from "./addon-configuration";
import { ADDON_SCHEMAS, type AddonSchema, type ValueRule } from "./addon-schemas";

// A config's add-on configuration checked against the add-on's dated schema (addon-schemas.ts): wrong types,
// enum misses and misspelt keys are refused; a key the dated schema lacks is a warning, since a later version
// of the add-on may have it.

export interface SchemaFinding {
  /** Below `configurationValues`. */
  readonly path: readonly string[];
  readonly value: Json;
  readonly message: string;
  readonly severity: "error" | "warning";
}

/** What a value must be, for a message. */
function expected(rule: ValueRule, addon: string): string | undefined {
  switch (rule.type) {
    case "string":
      if (rule.format === "boolean")
        return `must be the string "true" or "false": ${addon}'s schema takes it as a string, so EKS refuses a YAML true; quote it`;
      if (rule.format === "integer") return `must be a whole number as a string, such as "1": ${addon}'s schema takes it as a string; quote it`;
      return `must be a string: ${addon}'s schema takes it as one; quote it`;
    case "integer":
      return "must be a whole number, such as 2 (not quoted)";
    case "boolean":
      return "must be true or false (not quoted)";
    case "array":
      return "must be a list";
    case "object":
      return "must be a mapping";
    case "any":
      return undefined;
  }
}

function matches(rule: ValueRule, value: Json): boolean {
  switch (rule.type) {
    case "string":
      if (typeof value !== "string") return false;
      if (rule.format === "boolean") return value === "true" || value === "false";
      if (rule.format === "integer") return /^-?\d+$/.test(value);
      return true;
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    case "any":
      return true;
  }
}

function check(schema: AddonSchema, rule: ValueRule, value: Json, path: readonly string[], findings: SchemaFinding[]): void {
  if (!matches(rule, value)) {
    findings.push({ path, value, message: expected(rule, schema.addon) ?? "", severity: "error" });
    return;
  }
  if (rule.type === "string" && rule.enum !== undefined && typeof value === "string" && !rule.enum.includes(value)) {
    findings.push({ path, value, message: `must be one of ${rule.enum.join(", ")}`, severity: "error" });
  }
  if (rule.type !== "object" || !isObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const known = rule.properties?.[key] ?? rule.values;
    if (known !== undefined) {
      check(schema, known, child, [...path, key], findings);
    } else if (rule.closed) {
      findings.push(unknownKey(schema, rule, key, [...path, key]));
    }
  }
}

function unknownKey(schema: AddonSchema, rule: ValueRule & { readonly type: "object" }, key: string, path: readonly string[]): SchemaFinding {
  const near = closestNames(key, Object.keys(rule.properties ?? {}), 1);
  if (near.length > 0) {
    return {
      path,
      value: key,
      message: `is not a key of ${schema.addon}'s configuration; did you mean ${near[0]}? (EKS refuses unknown keys)`,
      severity: "error",
    };
  }
  // A key of a mapping one level down, written at this level (vpc-cni's env keys at the root): no version has it
  // here, so it is a mistake, not a newer key; name where it goes.
  const below = Object.entries(rule.properties ?? {}).find(([, child]) => child.type === "object" && child.properties?.[key] !== undefined)?.[0];
  if (below !== undefined) {
    return {
      path,
      value: key,
      message: `is not a key of ${schema.addon}'s configuration at this level in any version; did you mean ${below}.${key}? (EKS refuses unknown keys)`,
      severity: "error",
    };
  }
  return {
    path,
    value: key,
    message: `is not in ${schema.addon}'s configuration schema of ${schema.version}, as of ${schema.asOf}: EKS refuses it unless the version it installs has it (aws eks describe-addon-configuration --addon-name ${schema.addon} --addon-version <version> shows that version's)`,
    severity: "warning",
  };
}

/** What the dated schema says of a configuration; nothing for an add-on without one. */
export function checkAddonConfiguration(addon: string, values: JsonObject): SchemaFinding[] {
  const schema = ADDON_SCHEMAS[addon];
  if (schema === undefined) return [];
  const findings: SchemaFinding[] = [];
  check(schema, schema.root, values as Json, [], findings);
  return findings;
}
