import { parseSavingsArgs } from "../../src/savings/savings-cli";

// The usage flags of npm run savings: every mistake named with the value and what is allowed, all at once; the
// credentials from the environment only, never shown.

const NOW = new Date("2026-11-26T12:00:00Z");
const parse = (argv: readonly string[], env: NodeJS.ProcessEnv = {}) => parseSavingsArgs(["--state", __filename, ...argv], NOW, env);

describe("npm run savings: the usage flags", () => {
  it("reads KRR simple's defaults, the URL without credentials as the source, and no auth by default", () => {
    const parsed = parse(["--prometheus", "http://localhost:9090"]);
    expect(parsed).toMatchObject({
      usage: {
        source: "http://localhost:9090",
        target: { auth: { kind: "none" }, timeoutMs: 120_000 },
        method: { cpuPercentile: 95, memoryBuffer: 1.15, cpuMin: 0.01, memoryMinBytes: 100_000_000, windowSeconds: 14 * 86_400 },
      },
    });
  });

  it("takes a bearer token or basic auth from the environment (or the URL's user), and shows the URL without them", () => {
    expect(parse(["--prometheus", "https://prom.example.com"], { PROMETHEUS_TOKEN: "t0k3n" })).toMatchObject({
      usage: { target: { auth: { kind: "bearer", token: "t0k3n" } } },
    });
    expect(parse(["--prometheus", "https://reader:pw@prom.example.com/prometheus"])).toMatchObject({
      usage: { source: "https://prom.example.com/prometheus", target: { auth: { kind: "basic", username: "reader", password: "pw" } } },
    });
  });

  it("changes the method by its flags", () => {
    const parsed = parse([
      "--prometheus",
      "http://p:9090",
      "--usage-window",
      "36h",
      "--cpu-percentile",
      "99",
      "--memory-buffer",
      "5%",
      "--cpu-min",
      "25m",
      "--memory-min",
      "256Mi",
    ]);
    expect(parsed).toMatchObject({
      usage: { method: { cpuPercentile: 99, memoryBuffer: 1.05, cpuMin: 0.025, memoryMinBytes: 268_435_456, windowSeconds: 36 * 3600 } },
    });
  });

  it("names every mistake at once, with the value and what is allowed", () => {
    expect(
      parse(
        [
          "--prometheus",
          "http://p:9090",
          "--usage-window",
          "60d",
          "--cpu-percentile",
          "0",
          "--memory-buffer",
          "lots",
          "--cpu-min",
          "-1",
          "--memory-min",
          "big",
        ],
        {
          PROMETHEUS_TOKEN: "t",
          PROMETHEUS_USERNAME: "u",
        },
      ),
    ).toEqual({
      problems: [
        "--prometheus: both PROMETHEUS_TOKEN and a user name (PROMETHEUS_USERNAME, or one in the URL) are set: give one way to authenticate",
        '--usage-window: got "60d"; must be a whole number of minutes, hours or days (90m, 36h, 14d) from 1h to 38d',
        '--cpu-percentile: got "0"; must be a percentile above 0 and at most 100, such as 95',
        '--memory-buffer: got "lots"; must be a percent from 0 to 1000, such as 15',
        '--cpu-min: got "-1"; must be a CPU quantity above 0, such as 10m',
        '--memory-min: got "big"; must be a memory quantity above 0, such as 100M or 128Mi',
      ],
    });
  });

  it("refuses a URL that is not http or https, without echoing its credentials, and method flags without --prometheus", () => {
    expect(parse(["--prometheus", "ftp://user:secret@host/x"])).toEqual({
      problems: ['--prometheus: got "ftp://…@host/x"; must be an http or https URL such as http://localhost:9090'],
    });
    expect(parse(["--prometheus", "https://prom.example.com/api?token=s3cret"])).toEqual({
      problems: [
        '--prometheus: got "https://prom.example.com/api…"; give the server\'s address without a query string or fragment (a token goes in PROMETHEUS_TOKEN)',
      ],
    });
    expect(parse(["--prometheus", "http://user:pa/ss@host"])).toMatchObject({ problems: [expect.not.stringContaining("pa/ss")] });
    expect(parse(["--prometheus", "https://us%zzer:pw@prom.example.com"])).toEqual({
      problems: ["--prometheus: the user name or password in the URL is not valid percent-encoding: give them in PROMETHEUS_USERNAME and PROMETHEUS_PASSWORD"],
    });
    expect(parse(["--usage-window", "7d", "--cpu-percentile", "90"])).toEqual({
      problems: ["--usage-window, --cpu-percentile: work with --prometheus <url> only"],
    });
  });
});
