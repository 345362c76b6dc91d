import type { HostPort } from "../workload/workload-model";

// The host ports in use on a node: each <address, port, protocol> a pod binds on the node's network may be held
// by one pod at a time, so a second pod that binds it (a second replica with hostPort 80, a pod on a DaemonSet's
// port) needs another node. Two addresses clash when they are equal or either is unspecified (every address).
// @see kubernetes-sigs/karpenter v1.14.1 pkg/scheduling/hostportusage.go (HostPortUsage, HostPort.Matches, Conflicts)

const UNSPECIFIED = new Set(["0.0.0.0", "::"]);

const clash = (a: HostPort, b: HostPort): boolean =>
  a.protocol === b.protocol && a.port === b.port && (a.ip === b.ip || UNSPECIFIED.has(a.ip) || UNSPECIFIED.has(b.ip));

/** "80/TCP", "53/UDP on 10.0.0.1": a host port for people. */
export const formatHostPort = (p: HostPort): string => `${p.port}/${p.protocol}${UNSPECIFIED.has(p.ip) ? "" : ` on ${p.ip}`}`;

export class HostPortUsage {
  private readonly held: { readonly port: HostPort; readonly by: string }[];

  /** `held`: ports already bound on the node, each with who binds it ("DaemonSet kube-system/agent", "default/web"). */
  constructor(held: readonly { readonly port: HostPort; readonly by: string }[] = []) {
    this.held = [...held];
  }

  /** Why the ports cannot be bound beside those held, or undefined when they can. */
  conflict(ports: readonly HostPort[]): string | undefined {
    if (this.held.length === 0) return undefined;
    for (const port of ports) {
      const taken = this.held.find((h) => clash(h.port, port));
      if (taken !== undefined) return `host port ${formatHostPort(port)} is taken on the node by ${taken.by}`;
    }
    return undefined;
  }

  /** Binds the ports of one more pod. */
  add(ports: readonly HostPort[], by: string): void {
    for (const port of ports) this.held.push({ port, by });
  }
}
