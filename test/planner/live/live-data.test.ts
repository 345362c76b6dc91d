import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ConfiguredRetryStrategy } from "@smithy/core/retry";
import { readCatalogueFile } from "../../../src/instance-catalogue/catalogue-file";
import { CATALOGUE_PATH, catalogueFrom, loadInstanceCatalogue } from "../../../src/instance-catalogue/instance-catalogue";
import { fetchLiveCatalogueFile, LiveDataError, type LiveOptions, loadLiveCatalogue } from "../../../src/planner/live/live-catalogue";
import { refreshCatalogueLive } from "../../../src/planner/live/refresh-catalogue";
import { FakeAws, type FakeAwsOptions, INSTANCE_TYPES } from "./fake-aws";

// --live with the real AWS SDK v3 clients against a local fake of the EC2 and Price List endpoints.

const ROOT = path.resolve(__dirname, "../../..");
const T = INSTANCE_TYPES;
const DATA: FakeAwsOptions = {
  instanceTypePages: [
    [T["m5.large"], T["c6g.medium"]],
    [T["p4d.24xlarge"], T["inf2.xlarge"], T["mac2.metal"]],
  ],
  spotPages: [
    [
      { type: "m5.large", zone: "eu-west-1a", usd: "0.0350", at: "2026-11-23T10:00:00.000Z" },
      { type: "m5.large", zone: "eu-west-1a", usd: "0.0410", at: "2026-11-23T08:00:00.000Z" },
    ],
    [
      { type: "m5.large", zone: "eu-west-1b", usd: "0.0330", at: "2026-11-23T09:00:00.000Z" },
      { type: "c6g.medium", zone: "eu-west-1a", usd: "0.0131", at: "2026-11-23T09:30:00.000Z" },
    ],
  ],
  pricePages: [
    [
      { type: "m5.large", usd: "0.1070000000" },
      { type: "c6g.medium", usd: "0.0380000000" },
    ],
    [{ type: "p4d.24xlarge", usd: "32.7726000000" }],
  ],
};
const NOW = new Date("2026-11-23T11:00:00.000Z");

// The pinned SDK supports Node 20; its notice about later releases is not this test's output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

let fakes: FakeAws[] = [];
async function fake(options: Partial<FakeAwsOptions> = {}): Promise<FakeAws> {
  const started = await FakeAws.start({ ...DATA, ...options });
  fakes.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.stop()));
  fakes = [];
});

function options(aws: FakeAws, extra: Partial<LiveOptions> = {}): LiveOptions & { lines: string[] } {
  const lines: string[] = [];
  return {
    env: {},
    progress: (line) => lines.push(line),
    cacheDir: fs.mkdtempSync(path.join(os.tmpdir(), "planner-cache-")),
    now: () => NOW,
    // The SDK's own retry machinery, with 10 ms between attempts instead of its jittered backoff.
    overrides: {
      endpoint: aws.endpoint,
      credentials: { accessKeyId: "AKIDFAKE", secretAccessKey: "fake" },
      retryStrategy: new ConfiguredRetryStrategy(3, () => 10),
    },
    lines,
    ...extra,
  };
}

describe("live AWS data", () => {
  it("pages through DescribeInstanceTypes, DescribeSpotPriceHistory and GetProducts with signed requests", async () => {
    const aws = await fake();
    const file = await fetchLiveCatalogueFile("eu-west-1", options(aws));
    expect(aws.operations().sort()).toEqual([
      "DescribeInstanceTypes",
      "DescribeInstanceTypes",
      "DescribeSpotPriceHistory",
      "DescribeSpotPriceHistory",
      "GetProducts",
      "GetProducts",
    ]);
    expect(aws.requests.every((r) => r.authorization?.startsWith("AWS4-HMAC-SHA256 Credential=AKIDFAKE/"))).toBe(true);
    const spotRequests = aws.requests.filter((r) => r.operation === "DescribeSpotPriceHistory");
    expect(spotRequests[0].params).toMatchObject({ "ProductDescription.1": "Linux/UNIX", StartTime: "2026-11-23T11:00:00Z" });
    expect(spotRequests[1].params.NextToken).toBe("1");
    const pricing = aws.requests.find((r) => r.operation === "GetProducts")!;
    expect(pricing.json).toMatchObject({ ServiceCode: "AmazonEC2", FormatVersion: "aws_v1" });
    expect(pricing.json?.Filters).toContainEqual({ Type: "TERM_MATCH", Field: "regionCode", Value: "eu-west-1" });
    expect(pricing.json?.Filters).toContainEqual({ Type: "TERM_MATCH", Field: "operatingSystem", Value: "Linux" });

    expect(file.types.map((t) => t[0])).toEqual(["c6g.medium", "inf2.xlarge", "m5.large", "p4d.24xlarge"]); // no Mac
    expect(file.onDemandUsd).toEqual({ "c6g.medium": 0.038, "m5.large": 0.107, "p4d.24xlarge": 32.7726 });
    // The latest price per type and zone: m5.large in eu-west-1a was 0.041 at 08:00 and 0.035 at 10:00.
    expect(file.spot?.usd).toEqual({ "c6g.medium": { "eu-west-1a": 0.0131 }, "m5.large": { "eu-west-1a": 0.035, "eu-west-1b": 0.033 } });
    expect(file.spot?.asOf).toBe("2026-11-23T10:00:00.000Z");
    expect(file.asOf).toBe("2026-11-23T11:00:00.000Z");
    expect(file.region).toBe("eu-west-1");
  });

  it("derives from EC2's facts the labels, pods and allocatable resources Karpenter's reference publishes", async () => {
    const aws = await fake();
    const live = catalogueFrom(await fetchLiveCatalogueFile("eu-west-1", options(aws)));
    const reference = loadInstanceCatalogue();
    for (const name of ["m5.large", "c6g.medium", "p4d.24xlarge", "inf2.xlarge"]) {
      expect([name, live.type(name)?.labels]).toEqual([name, reference.type(name)?.labels]);
      expect([name, live.type(name)?.allocatable]).toEqual([name, reference.type(name)?.allocatable]);
      expect([name, live.type(name)?.extendedResources]).toEqual([name, reference.type(name)?.extendedResources]);
    }
  });

  it("retries throttled requests (the SDK's retries), then succeeds", async () => {
    const aws = await fake({ throttle: { DescribeInstanceTypes: 2, GetProducts: 1 } });
    const file = await fetchLiveCatalogueFile("eu-west-1", options(aws));
    expect(file.types).toHaveLength(4);
    expect(aws.operations().filter((o) => o === "DescribeInstanceTypes")).toHaveLength(4); // 2 throttled + 2 pages
    expect(aws.operations().filter((o) => o === "GetProducts")).toHaveLength(3);
  });

  it("gives up after the SDK's attempts with one clear line", async () => {
    const aws = await fake({ throttle: { DescribeSpotPriceHistory: 99 } });
    await expect(fetchLiveCatalogueFile("eu-west-1", options(aws))).rejects.toThrow(
      new LiveDataError("AWS throttled the live data requests (RequestLimitExceeded) after 3 attempts; wait a minute and try again, or plan without --live"),
    );
    expect(aws.operations().filter((o) => o === "DescribeSpotPriceHistory")).toHaveLength(3);
  });

  it("says on stderr what it is waiting for when the fetch is slow", async () => {
    const aws = await fake({ delayMs: 120 });
    const o = options(aws, { progressAfterMs: 50 });
    await fetchLiveCatalogueFile("eu-west-1", o);
    expect(o.lines).toHaveLength(2);
    expect(o.lines[0]).toMatch(/^planner: fetching instance types, spot prices and on-demand prices for eu-west-1 from AWS \(\d+ pages so far\)\.\.\.$/);
    expect(o.lines[1]).toMatch(/^planner: fetched 4 instance types for eu-west-1 in \d+\.\d s \(6 pages\)$/);
    // Fast fetches stay quiet.
    const quiet = options(await fake());
    await fetchLiveCatalogueFile("eu-west-1", quiet);
    expect(quiet.lines).toEqual([]);
  });

  it("caches a fetch on disk with its time, for an hour", async () => {
    const aws = await fake();
    const o = options(aws);
    const first = await loadLiveCatalogue("eu-west-1", o);
    const requests = aws.requests.length;
    const second = await loadLiveCatalogue("eu-west-1", o);
    expect(aws.requests.length).toBe(requests);
    expect(second.source).toBe(`${first.source} (cached ${path.join(o.cacheDir as string, "eu-west-1.json.gz")})`);
    expect(second.spot).toEqual(first.spot);
    await loadLiveCatalogue("eu-west-1", { ...o, now: () => new Date(NOW.getTime() + 61 * 60_000) });
    expect(aws.requests.length).toBe(2 * requests);
  });

  it("refreshes the committed catalogue's format from live data: same columns, new source and date, no spot", async () => {
    const aws = await fake();
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "planner-root-"));
    fs.mkdirSync(path.join(root, path.dirname(CATALOGUE_PATH)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, CATALOGUE_PATH), path.join(root, CATALOGUE_PATH));
    const { overrides } = options(aws);
    const result = await refreshCatalogueLive(root, "eu-west-1", { env: {}, progress: () => undefined, overrides });
    const written = readCatalogueFile(path.join(root, CATALOGUE_PATH));
    expect(written.labelKeys).toEqual([...loadInstanceCatalogue().labelKeys].sort());
    expect(written.region).toBe("eu-west-1");
    expect(written.source).toMatch(/^AWS APIs for eu-west-1: EC2 DescribeInstanceTypes, Price List GetProducts/);
    expect(written.spot).toBeUndefined();
    expect(aws.operations()).not.toContain("DescribeSpotPriceHistory");
    expect(result.summary).toMatch(/^4 instance types, 3 priced, eu-west-1, as of .*\n {2}removed: a1\.2xlarge, .*\(1332\)\n {2}3 on-demand prices changed$/);
  });
});

describe("npm run plan -- --live", () => {
  // Asynchronous: the fake endpoint answers from this process.
  const plan = (args: string[], env: NodeJS.ProcessEnv) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [path.join(ROOT, "scripts/plan.js"), ...args], { cwd: ROOT, env });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => {
        stdout += d.toString();
      });
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
      });
      child.on("close", (status) => resolve({ status, stdout, stderr }));
    });
  // No credentials anywhere, and no instance metadata service to ask: the SDK must not look beyond this machine.
  const isolated = (home: string): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: home,
    AWS_CONFIG_FILE: path.join(home, "none"),
    AWS_SHARED_CREDENTIALS_FILE: path.join(home, "none"),
    AWS_EC2_METADATA_DISABLED: "true",
  });

  it("plans with live prices, spot included, through the SDK's endpoint settings", async () => {
    const aws = await fake({
      instanceTypePages: [[T["m5.large"], T["c6g.medium"]]],
      spotPages: [[{ type: "c6g.medium", zone: "us-east-1a", usd: "0.0131", at: "2026-11-23T09:30:00.000Z" }]],
      pricePages: [
        [
          { type: "m5.large", usd: "0.096" },
          { type: "c6g.medium", usd: "0.034" },
        ],
      ],
    });
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "planner-home-"));
    const result = await plan(["--workload", "templates/demo", "--live", "--format", "json"], {
      ...isolated(home),
      AWS_ACCESS_KEY_ID: "AKIDFAKE",
      AWS_SECRET_ACCESS_KEY: "fake",
      AWS_ENDPOINT_URL_EC2: aws.endpoint,
      AWS_ENDPOINT_URL_PRICING: aws.endpoint,
      PLANNER_CACHE_DIR: path.join(home, "cache"),
    });
    expect([result.status, result.stderr]).toEqual([0, ""]);
    const json = JSON.parse(result.stdout);
    expect(json.scenarios.map((s: { name: string }) => s.name)).toEqual([
      "as-configured",
      "amd64-only",
      "multiarch",
      "on-demand-only",
      "spot",
      "autoscaled-max",
    ]);
    // The demo's two pods spread over zones a and b (one NodeClaim each). Spot is used where allowed and
    // offered: c6g.medium in us-east-1a at $0.0131; zone b has no spot offering here, so that node is on-demand.
    expect(json.scenarios[0].nodes).toEqual([
      { pool: "default", instanceType: "c6g.medium", capacityType: "spot", arch: "arm64", zone: "us-east-1a", pods: 1, hourlyUsd: 0.0131 },
      { pool: "default", instanceType: "c6g.medium", capacityType: "on-demand", arch: "arm64", zone: "us-east-1b", pods: 1, hourlyUsd: 0.034 },
    ]);
    expect(json.prices.asOf).toBe("2026-11-23T09:30:00.000Z");
    expect(json.warnings).not.toContainEqual(expect.stringMatching(/no spot prices/));
  });

  it("without credentials: one line, exit code 1", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "planner-home-"));
    const result = await plan(["--workload", "templates/demo", "--live"], { ...isolated(home), PLANNER_CACHE_DIR: path.join(home, "cache") });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "--live needs AWS credentials and found none (environment, shared config and SSO were tried): set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or plan without --live\n",
    );
  });
});
