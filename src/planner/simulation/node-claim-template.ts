import type { Requirement } from "../../instance-catalogue/requirements";
import type { PoolModel } from "../model";
import type { PoolOfferings } from "./pool-offerings";

// A NodePool as the scheduler opens NodeClaims from it: its offerings (the instance types it may launch, each
// with its DaemonSet overhead), the requirements whose minValues every NodeClaim must keep meeting, and whether
// spot offerings are known per zone (then a NodeClaim keeps only the types offered where it may still land).
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/nodeclaimtemplate.go (NodeClaimTemplate)

export class NodeClaimTemplate {
  readonly minValues: readonly Requirement[];

  constructor(
    readonly offerings: PoolOfferings,
    readonly spotKnown: boolean,
  ) {
    this.minValues = offerings.pool.requirements.filter((r) => r.minValues !== undefined);
  }

  get pool(): PoolModel {
    return this.offerings.pool;
  }
}
