import { configWarnings } from "../../src/config/config-warnings";
import { parseClusterConfig } from "../../src/config/load-config";
import { cronScheduleProblem } from "../../src/provisioners/cron-schedule";
import { sizeSentToEc2 } from "../../src/provisioners/ebs-volume-limits";
import { exceedsGoDuration, goDurationNanos } from "../../src/provisioners/go-duration";
import { clusterProblems as problemsOf } from "../helpers/problems";

// What Karpenter's Go code refuses after the CRD has admitted an object: well-known values
// (nodeclaim_validation.go), budget schedules (robfig/cron's ParseStandard), durations (time.ParseDuration
// into int64 nanoseconds) and the CRD's int32 fields. Each case: the exact line the user sees.

const pool = (fields: Record<string, unknown>) => ({ nodePools: [{ name: "a", ...fields }] });
const budget = (schedule: string) => pool({ budgets: [{ nodes: "0", schedule, duration: "8h" }] });
const nodeClass = (fields: Record<string, unknown>) => ({ nodeClasses: [{ name: "default", ...fields }] });
const CRON = 'must be a cron schedule such as "0 9 * * mon-fri" (UTC) or a macro such as @daily';
const TOO_LONG = "is longer than Karpenter can read: Go durations hold at most 2562047h (about 292 years)";

describe("requirements on labels with known values", () => {
  it.each([
    [
      "capacity types none of which exists",
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["xspot"] },
      `nodePools[0].requirements[0].values: got ["xspot"]; has no valid value: Karpenter knows on-demand, spot, reserved for karpenter.sh/capacity-type; Karpenter's runtime validation keeps its NodePool NotReady, and it launches nothing`,
    ],
    [
      "a tenancy no instance type offers",
      { key: "karpenter.k8s.aws/instance-tenancy", operator: "In", values: ["host"] },
      `nodePools[0].requirements[0].values: got ["host"]; has no valid value: Karpenter knows default, dedicated for karpenter.k8s.aws/instance-tenancy; no instance type offers another, so the pool never launches a node`,
    ],
    [
      "minValues counting a value Karpenter drops",
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["spot", "xspot"], minValues: 2 },
      `nodePools[0].requirements[0].minValues: got 2; is more than the 1 valid values: Karpenter knows on-demand, spot, reserved for karpenter.sh/capacity-type; Karpenter's runtime validation keeps its NodePool NotReady, and it launches nothing`,
    ],
  ])("rejects %s", (_name, requirement, line) => {
    expect(problemsOf(pool({ requirements: [requirement] }))).toEqual([line]);
  });

  it("accepts known values, and operators other than In, which Karpenter does not check", () => {
    const requirements = [
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["spot", "reserved"], minValues: 2 },
      { key: "karpenter.k8s.aws/instance-tenancy", operator: "NotIn", values: ["anything"] },
    ];
    expect(problemsOf(pool({ requirements }))).toEqual([]);
  });

  it("warns on stderr about unknown values beside known ones, which Karpenter only logs and drops", () => {
    const config = parseClusterConfig(
      {
        name: "demo",
        cluster: { publicAccessCidrs: ["203.0.113.0/24"] },
        ...pool({ requirements: [{ key: "karpenter.sh/capacity-type", operator: "In", values: ["spot", "on-demnad", "od"] }] }),
      },
      "t.yaml",
    );
    expect(configWarnings(config)).toEqual([
      'nodePools[0].requirements[0].values: Karpenter ignores "on-demnad", "od" (it knows on-demand, spot, reserved for karpenter.sh/capacity-type) and launches from the other values only',
    ]);
  });
});

describe("budget schedules, as robfig/cron's ParseStandard reads them", () => {
  it.each([
    [
      "a Quartz-style seconds field",
      "0 0 9 * * mon-fri",
      "has 6 fields; Karpenter's cron has exactly 5 (minute hour day-of-month month day-of-week), no seconds and no time zone (schedules are UTC)",
    ],
    [
      "a time zone prefix",
      "CRON_TZ=Europe/Paris 0 9 * * *",
      "has 6 fields; Karpenter's cron has exactly 5 (minute hour day-of-month month day-of-week), no seconds and no time zone (schedules are UTC)",
    ],
    ["a minute out of range", "61 9 * * *", 'the minute field: "61" is outside 0-59'],
    ["an hour out of range in a list", "0 9,24 * * *", 'the hour field: "24" is outside 0-23'],
    ["day of month 0", "0 9 0 * *", 'the day of month field: "0" is outside 1-31'],
    ["day of week 7", "0 9 * * 7", 'the day of week field: "7" is outside 0-6'],
    ["a misspelt day", "0 9 * * mon-fry", 'the day of week field: "fry" is not a number or a name'],
    ["a name where there are none", "0 nine * * *", 'the hour field: "nine" is not a number'],
    ["a reversed range", "0 9 * * fri-mon", 'the day of week field: "fri-mon" starts after it ends'],
    ["a zero step", "*/0 9 * * *", 'the minute field: the step in "*/0" must be a positive number'],
    ["two slashes", "*/5/2 9 * * *", "the minute field: \"*/5/2\" has more than one '/'"],
    ["an unknown macro", "@every 1h", '"@every 1h" is not one of the macros @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly'],
  ])("rejects %s", (_name, schedule, problem) => {
    expect(problemsOf(budget(schedule))).toEqual([`nodePools[0].budgets[0].schedule: got "${schedule}"; ${CRON}: ${problem}`]);
  });

  it.each([
    "@daily",
    "@midnight",
    "0 9 * * mon-fri",
    "*/15 9-17 1,15 jan-MAR SUN",
    "5/10 * ? * *",
    "0 0 1 */3 *",
    "59 23 31 12 6",
    // What robfig takes that a stricter reading would not: empty list parts, "*-…", "+", spaces around a macro.
    "0,30, 9 * * 1-5",
    "*-5 9 * * *",
    "+5 */+2 * * *",
    "@daily\n",
    " 0 9 * * mon ",
  ])("accepts %s", (schedule) => {
    expect(cronScheduleProblem(schedule)).toBeUndefined();
    expect(problemsOf(budget(schedule))).toEqual([]);
  });
});

describe("durations, as Go's time.ParseDuration reads them", () => {
  it("reads Go's syntax into nanoseconds", () => {
    expect(goDurationNanos("1h30m")).toBe(5_400_000_000_000n);
    expect(goDurationNanos("1m30.5s")).toBe(90_500_000_000n);
    expect(goDurationNanos("500ms")).toBe(500_000_000n);
    expect(goDurationNanos("1.5µs")).toBe(1_500n);
    expect(goDurationNanos("0")).toBe(0n);
    expect(goDurationNanos("-2s")).toBe(-2_000_000_000n);
    for (const bad of ["", "1d", "1", ".s", "1h 30m", "Never", "h"]) expect(goDurationNanos(bad)).toBeUndefined();
  });

  it("knows the longest duration Go holds: 2^63-1 ns is 2562047h47m16.854775807s", () => {
    expect(exceedsGoDuration("2562047h47m16s")).toBe(false);
    expect(exceedsGoDuration("2562047h47m17s")).toBe(true);
    expect(exceedsGoDuration("9223372036854775807ns")).toBe(false);
    expect(exceedsGoDuration("9223372036854775808ns")).toBe(true);
  });

  it("rejects every NodePool duration Go cannot hold, and keeps Never", () => {
    expect(
      problemsOf(
        pool({
          expireAfter: "3000000h",
          consolidateAfter: "99999999999999999999s",
          terminationGracePeriod: "2562048h",
          budgets: [{ nodes: "1", schedule: "@daily", duration: "3000000h" }],
        }),
      ),
    ).toEqual([
      `nodePools[0].consolidateAfter: got "99999999999999999999s"; ${TOO_LONG}`,
      `nodePools[0].budgets[0].duration: got "3000000h"; ${TOO_LONG}`,
      `nodePools[0].expireAfter: got "3000000h"; ${TOO_LONG}`,
      `nodePools[0].terminationGracePeriod: got "2562048h"; ${TOO_LONG}`,
    ]);
    expect(problemsOf(pool({ expireAfter: "Never", consolidateAfter: "Never", terminationGracePeriod: "2562047h" }))).toEqual([]);
  });

  it("takes the kubelet's soft eviction grace periods in Go's syntax, where the CRD has no pattern", () => {
    const kubelet = (grace: string) =>
      nodeClass({ kubelet: { evictionSoft: { "memory.available": "5%" }, evictionSoftGracePeriod: { "memory.available": grace } } });
    for (const grace of ["1m30.5s", "500ms", "1.5m", "90s"]) expect(problemsOf(kubelet(grace))).toEqual([]);
    const message = `must be a duration such as "1m30s", "90s" or "500ms" (Go's syntax: h, m, s, ms, us, ns; decimals allowed; not negative)`;
    expect(problemsOf(kubelet("1d"))).toEqual([`nodeClasses[0].kubelet.evictionSoftGracePeriod.memory.available: got "1d"; ${message}`]);
    expect(problemsOf(kubelet("-1m"))).toEqual([`nodeClasses[0].kubelet.evictionSoftGracePeriod.memory.available: got "-1m"; ${message}`]);
  });
});

describe("the CRD's int32 fields and its unpatterned ones", () => {
  it("rejects kubelet integers beyond int32, which Karpenter cannot decode", () => {
    const int32 = "must be between 0 and 2147483647 (a non-negative int32)";
    expect(problemsOf(nodeClass({ kubelet: { maxPods: 3_000_000_000, podsPerCore: -1, evictionMaxPodGracePeriod: 2 ** 31 } }))).toEqual([
      `nodeClasses[0].kubelet.maxPods: got 3000000000; ${int32}`,
      `nodeClasses[0].kubelet.podsPerCore: got -1; ${int32}`,
      "nodeClasses[0].kubelet.evictionMaxPodGracePeriod: got 2147483648; must be an int32 (-2147483648 to 2147483647)",
    ]);
    // evictionMaxPodGracePeriod has no minimum in the CRD: negative defers to each pod's grace period.
    expect(problemsOf(nodeClass({ kubelet: { maxPods: 2 ** 31 - 1, evictionMaxPodGracePeriod: -1 } }))).toEqual([]);
  });

  it("accepts Windows-style device names, which the CRD and EC2 allow", () => {
    expect(problemsOf(nodeClass({ blockDeviceMappings: [{ deviceName: "xvda", rootVolume: true, ebs: { volumeSize: "20Gi" } }] }))).toEqual([]);
    expect(problemsOf(nodeClass({ blockDeviceMappings: [{ deviceName: "/dev/xvd a", rootVolume: true, ebs: { volumeSize: "20Gi" } }] }))).toEqual([
      `nodeClasses[0].blockDeviceMappings[0].deviceName: got "/dev/xvd a"; must be a device name such as /dev/xvda, /dev/sdh or (Windows) xvdh`,
    ]);
  });

  it("takes Gt and Lt values up to int64, as strconv.Atoi does", () => {
    const lt = (value: string) => pool({ requirements: [{ key: "karpenter.k8s.aws/instance-memory", operator: "Lt", values: [value] }] });
    expect(problemsOf(lt("9223372036854775807"))).toEqual([]);
    expect(problemsOf(lt("9223372036854775808"))).toEqual([
      `nodePools[0].requirements[0].values: got ["9223372036854775808"]; requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value`,
    ]);
  });
});

describe("EBS volume sizes, as EC2 receives them from Karpenter", () => {
  it("converts sizes to whole 10^9 bytes, rounded up, as Karpenter does", () => {
    expect(sizeSentToEc2("100Gi")).toBe(108);
    expect(sizeSentToEc2("100G")).toBe(100);
    expect(sizeSentToEc2("16Ti")).toBe(17_593);
    expect(sizeSentToEc2("1T")).toBe(1_000);
  });

  // The smallest sizes are the AMI snapshot's to decide (launch-breaking-configs.test.ts).
  it("takes every root volume size the CRD admits: gp3 goes to 65536, above the CRD's 64000G", () => {
    for (const size of ["20G", "16Ti", "59000Gi", "64000G", "58Ti", "64T"]) expect(problemsOf(nodeClass({ rootVolumeSize: size }))).toEqual([]);
  });

  it("refuses a gp2 volume of 16Ti, which reaches EC2 as more than gp2's 16384", () => {
    expect(
      problemsOf(nodeClass({ blockDeviceMappings: [{ deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "16Ti", volumeType: "gp2" } }] })),
    ).toEqual([
      `nodeClasses[0].blockDeviceMappings[0].ebs.volumeSize: got "16Ti"; reaches EC2 as 17593 (Karpenter sends whole 10^9 bytes, rounded up), outside gp2's 1-16384: at most 15258Gi or 16384G for gp2`,
    ]);
  });

  it("takes each volume type's own range: io2 up to 65536, st1 from 125", () => {
    const volume = (ebs: Record<string, unknown>) => nodeClass({ blockDeviceMappings: [{ deviceName: "/dev/xvda", rootVolume: true, ebs }] });
    expect(problemsOf(volume({ volumeSize: "50000Gi", volumeType: "io2", iops: 100 }))).toEqual([]);
    expect(problemsOf(volume({ volumeSize: "100Gi", volumeType: "st1" }))).toEqual([
      `nodeClasses[0].blockDeviceMappings[0].ebs.volumeSize: got "100Gi"; reaches EC2 as 108 (Karpenter sends whole 10^9 bytes, rounded up), outside st1's 125-16384: at least 125G for st1`,
    ]);
    expect(problemsOf(volume({ volumeSize: "2Ti", volumeType: "standard" }))).toEqual([
      `nodeClasses[0].blockDeviceMappings[0].ebs.volumeSize: got "2Ti"; reaches EC2 as 2200 (Karpenter sends whole 10^9 bytes, rounded up), outside standard's 1-1024: at most 953Gi or 1024G for standard`,
    ]);
  });
});
