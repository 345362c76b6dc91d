// Amounts of what pods request and nodes offer: CPU in millicores, memory in bytes, pods as a count, and
// extended resources (GPUs, ...) as counts by name.

export interface Resources {
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
  readonly extended: Readonly<Record<string, number>>;
}

export const NO_RESOURCES: Resources = { cpu: 0, memory: 0, pods: 0, extended: {} };

export function addResources(a: Resources, b: Resources, times = 1): Resources {
  const extended: Record<string, number> = { ...a.extended };
  for (const [name, amount] of Object.entries(b.extended)) extended[name] = (extended[name] ?? 0) + amount * times;
  return { cpu: a.cpu + b.cpu * times, memory: a.memory + b.memory * times, pods: a.pods + b.pods * times, extended };
}

/** Whether `requested` on top of `used` fits in `offered` (resources.Fits: every requested amount within what is offered). */
export function fitsIn(requested: Resources, used: Resources, offered: Resources): boolean {
  if (requested.cpu + used.cpu > offered.cpu || requested.memory + used.memory > offered.memory || requested.pods + used.pods > offered.pods) return false;
  for (const [name, amount] of Object.entries(requested.extended)) {
    if (amount > 0 && amount + (used.extended[name] ?? 0) > (offered.extended[name] ?? 0)) return false;
  }
  return true;
}
