import type { Requirement } from "../../instance-catalogue/requirements";
import { isRequirementOperator, REQUIREMENT_OPERATORS } from "../../shared/vocabulary/requirement-operators";
import { normalizedLabel } from "../../shared/vocabulary/well-known-labels";
import { labelSelectorOf } from "./label-selector";
import { isRecord, type Raw, type Report } from "./raw-object";
import type { NamespaceScope, PodAffinityTerm, PodShape, PreferredNodeTerm, SpreadConstraint, Toleration } from "./workload-model";

// Where a pod may go, as a pod spec says it: node selector, node affinity (required and preferred), pod
// affinity and anti-affinity, topology spread constraints and tolerations. Node label keys are read as
// Karpenter reads them: a deprecated key (beta.kubernetes.io/os, ...) as the current one (DEPRECATED_LABELS).
// @see https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/
// @see https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/

export type Placement = Pick<
  PodShape,
  | "nodeSelector"
  | "affinityTerms"
  | "preferredAffinity"
  | "podAffinity"
  | "preferredPodAffinity"
  | "podAntiAffinity"
  | "preferredPodAntiAffinity"
  | "topologySpread"
  | "tolerations"
> & {
  /**
   * Some node selector term (required or preferred) names fields (matchFields: a node by its name). Karpenter reads
   * only a term's matchExpressions (NewPodRequirements), and provisions nothing for a pending pod with such a term
   * (Provisioner.Validate); the DaemonSet controller pins every pod it creates to its node this way.
   */
  readonly matchFields: boolean;
};

/** Karpenter's words for a pending pod it will not provision for because of matchFields (provisioner.go Validate). */
export const MATCH_FIELDS_IGNORED = "ignoring pod, node selector term with matchFields is not supported";

/** A node selector term's matchExpressions, keys read as Karpenter reads them; problems go to `report`. */
export function requirementsOf(expressions: unknown, path: string, report: Report): Requirement[] {
  if (expressions === undefined) return [];
  if (!Array.isArray(expressions)) {
    report(path, expressions, "must be a list of {key, operator, values}");
    return [];
  }
  const result: Requirement[] = [];
  for (const [i, e] of expressions.entries()) {
    const where = `${path}[${i}]`;
    if (!isRecord(e) || typeof e.key !== "string") report(`${where}.key`, isRecord(e) ? e.key : e, "must be a label key");
    else if (!isRequirementOperator(e.operator)) report(`${where}.operator`, e.operator, `must be one of ${REQUIREMENT_OPERATORS.join(", ")}`);
    else if (!Array.isArray(e.values ?? []) || !((e.values ?? []) as unknown[]).every((v) => typeof v === "string"))
      report(`${where}.values`, e.values, "must be a list of strings");
    else result.push({ key: normalizedLabel(e.key), operator: e.operator, values: (e.values ?? []) as string[] });
  }
  return result;
}

/** A node selector term's matchExpressions, as Karpenter reads it; `fields` hears of a term that also names fields. */
function termRequirements(term: unknown, path: string, report: Report, fields: () => void): Requirement[] {
  if (isRecord(term) && term.matchFields !== undefined && term.matchFields !== null) fields();
  return requirementsOf(isRecord(term) ? term.matchExpressions : term, `${path}.matchExpressions`, report);
}

/** A list field, or [] after reporting that it is not one. */
function listAt(owner: Raw | undefined, field: string, path: string, report: Report, what: string): unknown[] {
  const value = owner?.[field];
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  report(`${path}.${field}`, value, `must be a list of ${what}`);
  return [];
}

const weightOf = (value: unknown, path: string, report: Report): number => {
  if (typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 100) return value;
  report(path, value, "must be an integer from 1 to 100");
  return 1;
};

function nodeAffinity(affinity: Raw | undefined, path: string, report: Report): Pick<Placement, "affinityTerms" | "preferredAffinity" | "matchFields"> {
  const node = isRecord(affinity?.nodeAffinity) ? affinity.nodeAffinity : undefined;
  let matchFields = false;
  const fields = () => {
    matchFields = true;
  };
  const base = `${path}.affinity.nodeAffinity`;
  const required = node?.requiredDuringSchedulingIgnoredDuringExecution;
  let affinityTerms: Requirement[][] = [];
  if (required !== undefined) {
    const where = `${base}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
    const terms = isRecord(required) ? required.nodeSelectorTerms : undefined;
    if (!Array.isArray(terms)) report(where, terms, "must be a list of terms");
    else affinityTerms = terms.map((term, i) => termRequirements(term, `${where}[${i}]`, report, fields));
  }
  const preferredPath = `${base}.preferredDuringSchedulingIgnoredDuringExecution`;
  const preferredAffinity: PreferredNodeTerm[] = listAt(node, "preferredDuringSchedulingIgnoredDuringExecution", base, report, "{weight, preference}").map(
    (p, i) => ({
      weight: weightOf(isRecord(p) ? p.weight : undefined, `${preferredPath}[${i}].weight`, report),
      requirements: termRequirements(isRecord(p) ? p.preference : undefined, `${preferredPath}[${i}].preference`, report, fields),
    }),
  );
  return { affinityTerms, preferredAffinity, matchFields };
}

/** A selector with nothing in it: namespaceSelector {} selects every namespace. */
const isEmptySelector = (selector: Raw) =>
  Object.values(selector).every((v) => v === undefined || v === null || (Array.isArray(v) ? v.length === 0 : isRecord(v) && Object.keys(v).length === 0));

function namespacesOf(term: Raw, path: string, report: Report): NamespaceScope {
  const { namespaces: listed, namespaceSelector: selector } = term;
  if (isRecord(selector) && isEmptySelector(selector)) return { kind: "all" };
  if (selector !== undefined && selector !== null)
    report(`${path}.namespaceSelector`, selector, "is not supported by the planner beyond {} (every namespace): list the namespaces instead");
  if (listed === undefined || listed === null) return { kind: "own" };
  if (!Array.isArray(listed) || !listed.every((n) => typeof n === "string")) {
    report(`${path}.namespaces`, listed, "must be a list of namespace names");
    return { kind: "own" };
  }
  return listed.length === 0 ? { kind: "own" } : { kind: "list", namespaces: listed };
}

function stringList(value: unknown, path: string, report: Report): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value;
  report(path, value, "must be a list of label keys");
  return [];
}

function affinityTerm(term: unknown, path: string, report: Report, weight?: number): PodAffinityTerm | undefined {
  if (!isRecord(term)) {
    report(path, term, "must be a pod affinity term {labelSelector, topologyKey}");
    return undefined;
  }
  if (typeof term.topologyKey !== "string" || term.topologyKey === "") {
    report(`${path}.topologyKey`, term.topologyKey, "must be a node label key such as kubernetes.io/hostname");
    return undefined;
  }
  return {
    topologyKey: normalizedLabel(term.topologyKey),
    selector: labelSelectorOf(term.labelSelector, `${path}.labelSelector`, report),
    namespaces: namespacesOf(term, path, report),
    matchLabelKeys: stringList(term.matchLabelKeys, `${path}.matchLabelKeys`, report),
    ...(weight === undefined ? {} : { weight }),
  };
}

function podAffinities(affinity: Raw | undefined, field: "podAffinity" | "podAntiAffinity", path: string, report: Report) {
  const owner = isRecord(affinity?.[field]) ? (affinity[field] as Raw) : undefined;
  const base = `${path}.affinity.${field}`;
  const requiredField = "requiredDuringSchedulingIgnoredDuringExecution";
  const preferredField = "preferredDuringSchedulingIgnoredDuringExecution";
  const required = listAt(owner, requiredField, base, report, "pod affinity terms").flatMap((t, i) => {
    const term = affinityTerm(t, `${base}.${requiredField}[${i}]`, report);
    return term === undefined ? [] : [term];
  });
  const preferred = listAt(owner, preferredField, base, report, "{weight, podAffinityTerm}").flatMap((p, i) => {
    const where = `${base}.${preferredField}[${i}]`;
    const weight = weightOf(isRecord(p) ? p.weight : undefined, `${where}.weight`, report);
    const term = affinityTerm(isRecord(p) ? p.podAffinityTerm : undefined, `${where}.podAffinityTerm`, report, weight);
    return term === undefined ? [] : [term];
  });
  return { required, preferred };
}

function spreadConstraints(spec: Raw, path: string, report: Report): SpreadConstraint[] {
  return listAt(spec, "topologySpreadConstraints", path, report, "topology spread constraints").flatMap((c, i) => {
    const where = `${path}.topologySpreadConstraints[${i}]`;
    if (!isRecord(c)) {
      report(where, c, "must be a topology spread constraint {maxSkew, topologyKey, whenUnsatisfiable, labelSelector}");
      return [];
    }
    const problems: string[] = [];
    const check = (ok: boolean, field: string, value: unknown, message: string) => {
      if (!ok) {
        report(`${where}.${field}`, value, message);
        problems.push(field);
      }
    };
    check(typeof c.maxSkew === "number" && Number.isInteger(c.maxSkew) && c.maxSkew >= 1, "maxSkew", c.maxSkew, "must be an integer of at least 1");
    check(
      typeof c.topologyKey === "string" && c.topologyKey !== "",
      "topologyKey",
      c.topologyKey,
      "must be a node label key such as topology.kubernetes.io/zone",
    );
    check(
      c.whenUnsatisfiable === "DoNotSchedule" || c.whenUnsatisfiable === "ScheduleAnyway",
      "whenUnsatisfiable",
      c.whenUnsatisfiable,
      "must be DoNotSchedule or ScheduleAnyway",
    );
    const minDomains = c.minDomains;
    check(
      minDomains === undefined || (typeof minDomains === "number" && Number.isInteger(minDomains) && minDomains >= 1),
      "minDomains",
      minDomains,
      "must be an integer of at least 1",
    );
    const taints = c.nodeTaintsPolicy ?? "Ignore";
    check(taints === "Honor" || taints === "Ignore", "nodeTaintsPolicy", c.nodeTaintsPolicy, "must be Honor or Ignore");
    const selector = labelSelectorOf(c.labelSelector, `${where}.labelSelector`, report);
    if (problems.length > 0) return [];
    return [
      {
        topologyKey: normalizedLabel(c.topologyKey as string),
        maxSkew: c.maxSkew as number,
        whenUnsatisfiable: c.whenUnsatisfiable as SpreadConstraint["whenUnsatisfiable"],
        selector,
        matchLabelKeys: stringList(c.matchLabelKeys, `${where}.matchLabelKeys`, report),
        ...(minDomains === undefined ? {} : { minDomains: minDomains as number }),
        nodeTaintsPolicy: taints as SpreadConstraint["nodeTaintsPolicy"],
      },
    ];
  });
}

function tolerationsOf(spec: Raw, path: string, report: Report): Toleration[] {
  return listAt(spec, "tolerations", path, report, "tolerations").filter((t, i): t is Toleration => {
    if (isRecord(t) && (t.operator === undefined || t.operator === "Equal" || t.operator === "Exists")) return true;
    report(`${path}.tolerations[${i}]`, t, "must be a toleration {key, operator: Equal or Exists, value, effect}");
    return false;
  });
}

function nodeSelectorOf(spec: Raw, path: string, report: Report): Requirement[] {
  const selector = spec.nodeSelector;
  if (selector === undefined || selector === null) return [];
  if (!isRecord(selector)) {
    report(`${path}.nodeSelector`, selector, "must be a mapping of label keys to values");
    return [];
  }
  return Object.entries(selector).flatMap(([key, value]): Requirement[] => {
    if (typeof value === "string") return [{ key: normalizedLabel(key), operator: "In", values: [value] }];
    report(`${path}.nodeSelector.${key}`, value, "must be a string (quote numbers and booleans in YAML)");
    return [];
  });
}

/** Everything of a pod spec that decides where its pods may go. */
export function placementOf(spec: Raw, path: string, report: Report): Placement {
  const affinity = spec.affinity === undefined || spec.affinity === null ? undefined : isRecord(spec.affinity) ? spec.affinity : undefined;
  if (spec.affinity !== undefined && spec.affinity !== null && affinity === undefined)
    report(`${path}.affinity`, spec.affinity, "must be a mapping with nodeAffinity, podAffinity or podAntiAffinity");
  const pod = podAffinities(affinity, "podAffinity", path, report);
  const anti = podAffinities(affinity, "podAntiAffinity", path, report);
  return {
    nodeSelector: nodeSelectorOf(spec, path, report),
    ...nodeAffinity(affinity, path, report),
    podAffinity: pod.required,
    preferredPodAffinity: pod.preferred,
    podAntiAffinity: anti.required,
    preferredPodAntiAffinity: anti.preferred,
    topologySpread: spreadConstraints(spec, path, report),
    tolerations: tolerationsOf(spec, path, report),
  };
}
