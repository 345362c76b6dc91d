import { allowedValues, formatRequirement, type Requirement, satisfies } from "../../instance-catalogue/requirements";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import type { Toleration } from "../workload/workload-model";
import { type FitOrReason, fitWith, refuse } from "./fit-or-reason";
import { OPEN_LABELS, type PoolOfferings, type PricedCapacityType } from "./pool-offerings";
import { formatTaint, untoleratedTaint } from "./taints";

// Can a pod run on a node of this pool, and on which of its instance types? Karpenter's NodeClaim.CanAdd
// checks, in this order: the pool's taints (scheduling.Taints.ToleratesPod), then the pod's requirements
// against the pool's (Requirements.Compatible): well-known labels select instance types, offerings (capacity
// type, zone), or the pool's own labels; a custom label the pool does not define cannot be selected.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/nodeclaim.go CanAdd

/** The requirements and tolerations a pod is tried with: its preferences may be relaxed (preferences.ts). */
export interface PodForm {
  readonly requirements: readonly Requirement[];
  readonly tolerations: readonly Toleration[];
  /** Identifies requirements and tolerations together, for the cache. */
  readonly key: string;
}

export interface PoolFit {
  /** Which of the pool's instance options the pod accepts (by index); shared between pods with the same requirements. */
  readonly accepts: Uint8Array;
  readonly capacityTypes: readonly PricedCapacityType[];
  readonly zones: readonly string[];
}

/** Whether a pod requirement on a label the pool itself defines (its labels, name, custom requirements) can hold. */
function poolLabelAllows(offerings: PoolOfferings, r: Requirement, region: string): boolean {
  const pool = offerings.pool;
  const fixed = r.key === LABEL.nodePool ? pool.name : r.key === LABEL.nodeClass ? pool.nodeClass.name : r.key === LABEL.region ? region : pool.labels[r.key];
  if (fixed !== undefined) return satisfies(fixed, r);
  if (OPEN_LABELS.has(r.key) || r.key === LABEL.zoneId) return true;
  const poolRequirements = offerings.poolLabelRequirements.filter((p) => p.key === r.key);
  if (poolRequirements.length === 0) return r.operator === "NotIn" || r.operator === "DoesNotExist";
  const candidates = poolRequirements.find((p) => p.operator === "In")?.values;
  if (candidates !== undefined) return candidates.some((v) => poolRequirements.every((p) => satisfies(v, p)) && satisfies(v, r));
  // Open-ended pool requirements (Exists, NotIn): the node label takes a value the pod's In list offers.
  if (r.operator === "In") return (r.values ?? []).some((v) => poolRequirements.every((p) => satisfies(v, p)));
  if (r.operator === "DoesNotExist") return poolRequirements.every((p) => satisfies(undefined, p));
  return true;
}

interface TermFit {
  readonly typeRequirements: readonly Requirement[];
  readonly capacityTypes: readonly PricedCapacityType[];
  readonly zones: readonly string[];
}

function termFit(offerings: PoolOfferings, requirements: readonly Requirement[], typeKeys: ReadonlySet<string>, region: string): FitOrReason<TermFit> {
  let capacityTypes = [...offerings.capacityTypes];
  let zones = offerings.zones;
  const typeRequirements: Requirement[] = [];
  for (const r of requirements) {
    if (typeKeys.has(r.key)) typeRequirements.push(r);
    else if (r.key === LABEL.capacityType) capacityTypes = allowedValues(capacityTypes, r);
    else if (r.key === LABEL.zone) zones = allowedValues(zones, r);
    else if (!poolLabelAllows(offerings, r, region)) return refuse(`requires ${formatRequirement(r)}, which the pool's labels and requirements do not provide`);
  }
  if (capacityTypes.length === 0) return refuse(`requires a capacity type the pool does not offer (${offerings.capacityTypes.join(", ")})`);
  if (zones.length === 0) return refuse(`requires a zone the pool cannot launch in (${offerings.zones.join(", ")})`);
  return fitWith({ typeRequirements, capacityTypes, zones });
}

/** Caches fits per pool and pod form, so that a thousand identical pods cost one evaluation. */
export class FitCache {
  private readonly fits = new Map<PoolOfferings, Map<string, FitOrReason<PoolFit>>>();
  private readonly masks = new Map<PoolOfferings, Map<string, Uint8Array>>();

  constructor(
    private readonly typeKeys: ReadonlySet<string>,
    private readonly region: string,
  ) {}

  private mask(offerings: PoolOfferings, requirements: readonly Requirement[]): Uint8Array {
    let byKey = this.masks.get(offerings);
    if (byKey === undefined) {
      byKey = new Map();
      this.masks.set(offerings, byKey);
    }
    const key = JSON.stringify(requirements);
    let mask = byKey.get(key);
    if (mask === undefined) {
      const fresh = new Uint8Array(offerings.options.length);
      offerings.options.forEach((c, i) => {
        fresh[i] = requirements.every((r) => satisfies(c.labels[r.key], r)) ? 1 : 0;
      });
      byKey.set(key, fresh);
      mask = fresh;
    }
    return mask;
  }

  private evaluate(form: PodForm, offerings: PoolOfferings): FitOrReason<PoolFit> {
    if (offerings.emptyReason !== undefined) return refuse(offerings.emptyReason);
    const taint = untoleratedTaint(form.tolerations, offerings.pool.taints);
    if (taint !== undefined) return refuse(`does not tolerate the taint ${formatTaint(taint)}`);
    const term = termFit(offerings, form.requirements, this.typeKeys, this.region);
    if (!term.ok) return term;
    const { typeRequirements, capacityTypes, zones } = term.value;
    const accepts = this.mask(offerings, typeRequirements);
    if (!accepts.includes(1)) return refuse(`requires ${typeRequirements.map(formatRequirement).join(", ")}, which none of the pool's instance types has`);
    return fitWith({ accepts, capacityTypes, zones });
  }

  /** The pod, in this form, on this pool. */
  fit(form: PodForm, offerings: PoolOfferings): FitOrReason<PoolFit> {
    let byForm = this.fits.get(offerings);
    if (byForm === undefined) {
      byForm = new Map();
      this.fits.set(offerings, byForm);
    }
    let result = byForm.get(form.key);
    if (result === undefined) {
      result = this.evaluate(form, offerings);
      byForm.set(form.key, result);
    }
    return result;
  }
}
