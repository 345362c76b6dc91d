// RFC 3339 times as the command-line flags and replica curves take them ("2026-11-30T08:00:00Z",
// "2026-11-30T09:00:00+01:00"): the shape checked first, then the date itself, since JavaScript's Date rolls an
// impossible day over (February 30th would read as March 2nd) where a user meant something else.

const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The instant, or undefined when the text is not an RFC 3339 time or names a day, hour or minute that does not exist. */
export function parseRfc3339(text: string): Date | undefined {
  const match = RFC_3339.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number);
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day || hour > 23 || minute > 59 || second > 60) return undefined;
  const at = new Date(text.replace(" ", "T"));
  return Number.isNaN(at.getTime()) ? undefined : at;
}
