/**
 * EKS's support calendar for the Kubernetes versions this project knows, as of CALENDAR_DATE. A minor version
 * has 14 months of standard support from its EKS release, then 12 months of extended support (billed at six
 * times the standard control-plane price); after that EKS creates no cluster on it and upgrades existing
 * control planes by itself. Dates are UTC; billing for extended support starts on the first day.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html (release calendar: 1.29-1.34)
 * @see https://endoflife.date/amazon-eks (1.35, released on EKS on 2026-01-27)
 */
export const CALENDAR_DATE = "2026-11-23";

export interface VersionSupportDates {
  /** The first day billed as extended support. */
  readonly endOfStandardSupport: string;
  /** The first day EKS no longer runs the version. */
  readonly endOfExtendedSupport: string;
  /** Why a date is a bound rather than EKS's announcement. */
  readonly estimate?: string;
}

export const EKS_SUPPORT_CALENDAR: Readonly<Record<string, VersionSupportDates>> = {
  "1.29": { endOfStandardSupport: "2025-03-23", endOfExtendedSupport: "2026-03-23" },
  "1.30": { endOfStandardSupport: "2025-07-23", endOfExtendedSupport: "2026-07-23" },
  "1.31": { endOfStandardSupport: "2025-11-26", endOfExtendedSupport: "2026-11-26" },
  "1.32": { endOfStandardSupport: "2026-03-23", endOfExtendedSupport: "2027-03-23" },
  "1.33": { endOfStandardSupport: "2026-07-29", endOfExtendedSupport: "2027-07-29" },
  "1.34": { endOfStandardSupport: "2026-12-02", endOfExtendedSupport: "2027-12-02" },
  "1.35": { endOfStandardSupport: "2027-03-27", endOfExtendedSupport: "2028-03-27" },
  // Kubernetes released 1.36 on 2026-04-22 and EKS releases a version after upstream does, so its 14 months
  // of standard support end no earlier than 2027-06-22; EKS's own date was not in the sources checked.
  "1.36": {
    endOfStandardSupport: "2027-06-22",
    endOfExtendedSupport: "2028-06-22",
    estimate: "no earlier than: Kubernetes released 1.36 on 2026-04-22, and EKS support lasts 14 + 12 months from EKS's later release",
  },
};

export type SupportPhase = "standard" | "extended" | "ended";

/** Where a version stands on `date` (YYYY-MM-DD); undefined for a version the calendar does not hold. */
export function supportPhase(version: string, date: string = CALENDAR_DATE): SupportPhase | undefined {
  const dates = EKS_SUPPORT_CALENDAR[version];
  if (dates === undefined) return undefined;
  if (date >= dates.endOfExtendedSupport) return "ended";
  return date >= dates.endOfStandardSupport ? "extended" : "standard";
}

/** Whole days from one YYYY-MM-DD date to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** How far ahead of a support date a synth starts to warn: AWS announces the end of standard support 60 days ahead. */
const WARNING_DAYS = 90;

/** The version after this one in the calendar: the one an upgrade goes to (one minor at a time). */
function nextVersion(version: string): string | undefined {
  const versions = Object.keys(EKS_SUPPORT_CALENDAR);
  return versions[versions.indexOf(version) + 1];
}

/**
 * What a user must hear about the support phase of the cluster's version, on the calendar's date (not the
 * machine's clock, so that a synth says the same thing every day: the dates are in the message).
 */
export function versionSupportWarning(version: string, upgradePolicy: "standard" | "extended"): string | undefined {
  const dates = EKS_SUPPORT_CALENDAR[version];
  if (dates === undefined) return undefined;
  const next = nextVersion(version);
  // One minor at a time, but name where the climb ends when the next version is no cheaper.
  const standard = Object.keys(EKS_SUPPORT_CALENDAR).find((v) => supportPhase(v) === "standard");
  const onTo =
    next !== undefined && supportPhase(next) !== "standard" && standard !== undefined ? `, then on to ${standard}, the oldest in standard support` : "";
  const upgrade = (when: string) => `upgrade to ${next ?? "a newer version"}${when}${onTo} (kubernetesVersion; docs/operations.md, Upgrades)`;
  const asOf = `EKS's calendar as of ${CALENDAR_DATE}`;
  const extendedPrice = "billed extended support, six times the standard price (npm run plan prices it)";
  if (daysBetween(CALENDAR_DATE, dates.endOfExtendedSupport) <= WARNING_DAYS) {
    return `Kubernetes ${version} leaves EKS extended support on ${dates.endOfExtendedSupport} (${asOf}): then EKS creates no cluster on it and upgrades existing control planes by itself; ${upgrade(" now")}`;
  }
  if (supportPhase(version) === "extended") {
    // "You cannot disable extended support once your cluster has entered it" (EKS user guide). What EKS does
    // with a new cluster on such a version under STANDARD is not documented, so nothing is said of it.
    const policy = upgradePolicy === "standard" ? "; cluster.upgradePolicy standard cannot take a cluster out of extended support once it is in it" : "";
    return `Kubernetes ${version} left EKS standard support on ${dates.endOfStandardSupport} (${asOf}): a cluster on it is in extended support, billed at six times the standard price (npm run plan prices it)${policy}; ${upgrade("")}`;
  }
  if (daysBetween(CALENDAR_DATE, dates.endOfStandardSupport) <= WARNING_DAYS) {
    const then =
      upgradePolicy === "extended"
        ? `the control plane is ${extendedPrice}`
        : "EKS upgrades the control plane by itself (cluster.upgradePolicy is standard), out of Terraform's hands";
    return `Kubernetes ${version} leaves EKS standard support on ${dates.endOfStandardSupport} (${asOf}): from then on ${then}; ${upgrade(" before then")}`;
  }
  return undefined;
}
