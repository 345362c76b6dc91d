// "Fits, or why not": the one answer every check of the scheduler gives, from a pool's taints to a topology
// group's skew. Karpenter's checks return an error, nil when the pod fits; here the refusal carries the reason
// a plan shows for a pod that finds no node, and a fit may carry what it found (the pool's types the pod
// accepts, the zones a spread leaves).
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/nodeclaim.go (Add)

export interface Fit<T> {
  readonly ok: true;
  readonly value: T;
}

export interface Refusal {
  readonly ok: false;
  readonly reason: string;
}

export type FitOrReason<T = undefined> = Fit<T> | Refusal;

export const fitWith = <T>(value: T): Fit<T> => ({ ok: true, value });

/** A fit that finds nothing worth passing on; shared, as most checks answer it. */
export const FITS: Fit<undefined> = { ok: true, value: undefined };

export const refuse = (reason: string): Refusal => ({ ok: false, reason });
