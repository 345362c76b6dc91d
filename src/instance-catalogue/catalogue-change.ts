import type { CatalogueFile } from "./catalogue-file";

/** What changed between two catalogues, for the reviewer of a refresh. */
export function describeChange(before: CatalogueFile | undefined, after: CatalogueFile): string {
  const lines = [`${after.types.length} instance types, ${Object.keys(after.onDemandUsd).length} priced, ${after.region}, as of ${after.asOf}`];
  if (before === undefined) return lines[0];
  const old = new Set(before.types.map((t) => t[0]));
  const now = new Set(after.types.map((t) => t[0]));
  const added = [...now].filter((n) => !old.has(n));
  const removed = [...old].filter((n) => !now.has(n));
  const repriced = Object.keys(after.onDemandUsd).filter((n) => before.onDemandUsd[n] !== undefined && before.onDemandUsd[n] !== after.onDemandUsd[n]);
  const list = (names: string[]) => (names.length > 12 ? `${names.slice(0, 12).join(", ")}, ... (${names.length})` : names.join(", "));
  if (added.length > 0) lines.push(`added: ${list(added)}`);
  if (removed.length > 0) lines.push(`removed: ${list(removed)}`);
  lines.push(`${repriced.length} on-demand prices changed`);
  return lines.join("\n  ");
}
