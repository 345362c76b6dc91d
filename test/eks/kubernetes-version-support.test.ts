import { CALENDAR_DATE, daysBetween, EKS_SUPPORT_CALENDAR, supportPhase } from "../../src/eks/kubernetes-version-support";
import { SUPPORTED_KUBERNETES_VERSIONS } from "../../src/karpenter/karpenter-release";

describe("EKS's support calendar", () => {
  it("holds every version the config accepts, none of them past extended support on its date", () => {
    for (const version of SUPPORTED_KUBERNETES_VERSIONS) {
      expect(EKS_SUPPORT_CALENDAR[version]).toBeDefined();
      expect(supportPhase(version)).not.toBe("ended");
    }
    expect(supportPhase("1.30")).toBe("ended");
  });

  it("gives each version 12 months of extended support after its standard support, as EKS's calendar does", () => {
    for (const [version, dates] of Object.entries(EKS_SUPPORT_CALENDAR)) {
      const [year, month, day] = dates.endOfStandardSupport.split("-");
      expect({ version, end: dates.endOfExtendedSupport }).toEqual({ version, end: `${Number(year) + 1}-${month}-${day}` });
    }
  });

  it("moves a version from standard to extended support on the first day billed, and ends it on the day EKS stops", () => {
    expect(supportPhase("1.34", "2026-12-01")).toBe("standard");
    expect(supportPhase("1.34", "2026-12-02")).toBe("extended");
    expect(supportPhase("1.34", "2027-12-01")).toBe("extended");
    expect(supportPhase("1.34", "2027-12-02")).toBe("ended");
    expect(supportPhase("1.28")).toBeUndefined();
  });

  it("is dated: the phases on its own date", () => {
    expect(CALENDAR_DATE).toBe("2026-11-23");
    expect(Object.fromEntries(SUPPORTED_KUBERNETES_VERSIONS.map((v) => [v, supportPhase(v)]))).toEqual({
      "1.31": "extended",
      "1.32": "extended",
      "1.33": "extended",
      "1.34": "standard",
      "1.35": "standard",
      "1.36": "standard",
    });
  });

  it("counts days across month ends and leap years", () => {
    expect(daysBetween("2026-11-23", "2026-12-02")).toBe(9);
    expect(daysBetween("2028-02-28", "2028-03-01")).toBe(2);
    expect(daysBetween("2026-12-02", "2026-11-23")).toBe(-9);
  });
});
