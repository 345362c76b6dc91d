// What a pod requests of a node, from its containers' requests, as the scheduler adds them up: init containers
// run one at a time before the others, and restartable init containers (sidecars, restartPolicy: Always) keep
// running beside everything after them; a pod needs the larger of its init peak and its running sum, resource by
// resource. Pod-level requests (spec.resources), where set, stand for the containers' sum.
// @see https://kubernetes.io/docs/concepts/workloads/pods/sidecar-containers/#resource-sharing-within-containers
// @see kubernetes/kubernetes staging/src/k8s.io/component-helpers/resource/helpers.go (PodRequests, AggregateContainerRequests)

type Amounts = Record<string, number>;

/** Init containers run one at a time before the others; sidecars (restartPolicy: Always) keep running beside everything after them. */
export type ContainerRole = "app" | "init" | "sidecar";

function combine(a: Readonly<Amounts>, b: Readonly<Amounts>, op: (x: number, y: number) => number): Amounts {
  const out: Amounts = {};
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) out[key] = op(a[key] ?? 0, b[key] ?? 0);
  return out;
}

export const addAmounts = (a: Readonly<Amounts>, b: Readonly<Amounts>): Amounts => combine(a, b, (x, y) => x + y);
const maxAmounts = (a: Readonly<Amounts>, b: Readonly<Amounts>): Amounts => combine(a, b, Math.max);

/** The containers' requests together: the larger of the init peak and the running sum, by resource. */
export function aggregateRequests(containers: readonly { readonly role: ContainerRole; readonly requests: Readonly<Amounts> }[]): Amounts {
  let running: Amounts = {};
  let sidecars: Amounts = {};
  let initPeak: Amounts = {};
  for (const c of containers) {
    if (c.role === "app") running = addAmounts(running, c.requests);
    else if (c.role === "sidecar") {
      sidecars = addAmounts(sidecars, c.requests);
      initPeak = maxAmounts(initPeak, sidecars);
    } else initPeak = maxAmounts(initPeak, addAmounts(c.requests, sidecars));
  }
  return maxAmounts(initPeak, addAmounts(running, sidecars));
}
