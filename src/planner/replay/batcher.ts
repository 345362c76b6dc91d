import type { ReplayTiming } from "./replay-timing";

// Karpenter's provisioning batch window: the first pending pod opens it; it closes once no new pod came for the
// idle duration, or once it has been open the maximum duration, whichever comes first. A pod already counted in
// the window does not extend it; only new pods do (the replay triggers it for pods it has not seen).
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/batcher.go (Trigger, Wait)

export class Batcher {
  private openedAt: number | undefined;
  private lastTriggerAt = 0;

  constructor(private readonly timing: Pick<ReplayTiming, "batchIdleSeconds" | "batchMaxSeconds">) {}

  /** New pending pods at `t`: opens the window, or extends it. */
  trigger(t: number): void {
    if (this.openedAt === undefined) this.openedAt = t;
    this.lastTriggerAt = t;
  }

  /** When the open window closes and the provisioner runs; undefined when no window is open. */
  closesAt(): number | undefined {
    if (this.openedAt === undefined) return undefined;
    return Math.min(this.openedAt + this.timing.batchMaxSeconds, this.lastTriggerAt + this.timing.batchIdleSeconds);
  }

  close(): void {
    this.openedAt = undefined;
  }
}
