import * as http from "node:http";
import type { AddressInfo } from "node:net";

// A local stand-in for the EC2 and Price List endpoints, on 127.0.0.1 only, speaking the wire protocols the
// real SDK uses: EC2's query protocol (form-encoded POST, XML answers, NextToken pages, XML errors) and
// awsJson1_1 for pricing (X-Amz-Target, JSON, PriceList entries as JSON strings). Faults are injected per
// operation: throttling answers, delays. Every request is recorded for assertions.

export interface RecordedRequest {
  readonly operation: string;
  readonly params: Readonly<Record<string, string>>;
  readonly json: Record<string, unknown> | undefined;
  readonly authorization: string | undefined;
}

export interface FakeAwsOptions {
  /** DescribeInstanceTypes pages: each an array of InstanceTypeInfo-shaped objects (PascalCase). */
  readonly instanceTypePages: readonly (readonly object[])[];
  readonly spotPages: readonly (readonly { type: string; zone: string; usd: string; at: string }[])[];
  /** GetProducts pages: each an array of { type, usd }. */
  readonly pricePages: readonly (readonly { type: string; usd: string }[])[];
  /** Answer this many requests of an operation with a throttling error first. */
  readonly throttle?: Readonly<Record<string, number>>;
  /** Wait this long before answering each request. */
  readonly delayMs?: number;
}

const lowerFirst = (s: string) => s[0].toLowerCase() + s.slice(1);
const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** EC2 XML: members named lowerCamel, list entries as <item>. */
function toXml(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => `<item>${toXml(v)}</item>`).join("");
  if (value !== null && typeof value === "object") {
    return Object.entries(value)
      .map(([k, v]) => `<${lowerFirst(k)}>${toXml(v)}</${lowerFirst(k)}>`)
      .join("");
  }
  return escapeXml(String(value));
}

function ec2Page(operation: string, set: string, items: readonly object[], next: string | undefined): string {
  return `<?xml version="1.0" encoding="UTF-8"?><${operation}Response xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>r-1</requestId><${set}>${toXml(items)}</${set}>${next === undefined ? "" : `<nextToken>${next}</nextToken>`}</${operation}Response>`;
}

function priceItem(type: string, usd: string): string {
  return JSON.stringify({
    product: { productFamily: "Compute Instance", attributes: { instanceType: type, operatingSystem: "Linux", tenancy: "Shared" }, sku: `SKU${type}` },
    terms: {
      OnDemand: { [`SKU${type}.JRTCKXETXF`]: { priceDimensions: { [`SKU${type}.JRTCKXETXF.6YS6EN2CT7`]: { unit: "Hrs", pricePerUnit: { USD: usd } } } } },
    },
  });
}

export class FakeAws {
  readonly requests: RecordedRequest[] = [];
  private readonly server: http.Server;
  private readonly throttled: Record<string, number>;

  private constructor(private readonly options: FakeAwsOptions) {
    this.throttled = { ...(options.throttle ?? {}) };
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        setTimeout(() => this.answer(req, body, res), options.delayMs ?? 0);
      });
    });
  }

  static async start(options: FakeAwsOptions): Promise<FakeAws> {
    const fake = new FakeAws(options);
    await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  operations(): string[] {
    return this.requests.map((r) => r.operation);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(req: http.IncomingMessage, body: string, res: http.ServerResponse): void {
    const target = req.headers["x-amz-target"];
    const json = typeof target === "string" ? (JSON.parse(body || "{}") as Record<string, unknown>) : undefined;
    const params = json === undefined ? Object.fromEntries(new URLSearchParams(body)) : {};
    const operation = typeof target === "string" ? target.split(".")[1] : (params.Action ?? "?");
    this.requests.push({ operation, params, json, authorization: req.headers.authorization });

    if ((this.throttled[operation] ?? 0) > 0) {
      this.throttled[operation]--;
      if (json !== undefined) {
        res.writeHead(400, { "content-type": "application/x-amz-json-1.1", "x-amzn-errortype": "ThrottlingException" });
        res.end(JSON.stringify({ __type: "ThrottlingException", message: "Rate exceeded" }));
      } else {
        res.writeHead(503, { "content-type": "text/xml" });
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>RequestLimitExceeded</Code><Message>Request limit exceeded.</Message></Error></Errors><RequestID>r-2</RequestID></Response>',
        );
      }
      return;
    }
    const page = (token: unknown) => (typeof token === "string" && token !== "" ? Number(token) : 0);
    const next = (i: number, pages: readonly unknown[]) => (i + 1 < pages.length ? String(i + 1) : undefined);
    if (operation === "DescribeInstanceTypes") {
      const i = page(params.NextToken);
      res.writeHead(200, { "content-type": "text/xml" });
      res.end(ec2Page(operation, "instanceTypeSet", this.options.instanceTypePages[i], next(i, this.options.instanceTypePages)));
    } else if (operation === "DescribeSpotPriceHistory") {
      const i = page(params.NextToken);
      const items = this.options.spotPages[i].map((s) => ({
        InstanceType: s.type,
        AvailabilityZone: s.zone,
        SpotPrice: s.usd,
        Timestamp: s.at,
        ProductDescription: "Linux/UNIX",
      }));
      res.writeHead(200, { "content-type": "text/xml" });
      res.end(ec2Page(operation, "spotPriceHistorySet", items, next(i, this.options.spotPages)));
    } else if (operation === "GetProducts") {
      const i = page(json?.NextToken);
      const token = next(i, this.options.pricePages);
      res.writeHead(200, { "content-type": "application/x-amz-json-1.1" });
      res.end(
        JSON.stringify({
          FormatVersion: "aws_v1",
          PriceList: this.options.pricePages[i].map((p) => priceItem(p.type, p.usd)),
          ...(token === undefined ? {} : { NextToken: token }),
        }),
      );
    } else {
      res.writeHead(400, { "content-type": "text/xml" });
      res.end(`<Response><Errors><Error><Code>InvalidAction</Code><Message>${escapeXml(operation)}</Message></Error></Errors></Response>`);
    }
  }
}

/** EC2's facts for four types, typed from the EC2 documentation; the reference labels are the check. */
export const INSTANCE_TYPES = {
  "m5.large": {
    InstanceType: "m5.large",
    SupportedUsageClasses: ["on-demand", "spot"],
    ProcessorInfo: { SupportedArchitectures: ["x86_64"], SustainedClockSpeedInGhz: 3.1, Manufacturer: "Intel" },
    VCpuInfo: { DefaultVCpus: 2 },
    MemoryInfo: { SizeInMiB: 8192 },
    Hypervisor: "nitro",
    EbsInfo: { EbsOptimizedSupport: "default", EbsOptimizedInfo: { MaximumBandwidthInMbps: 4750 } },
    NetworkInfo: {
      MaximumNetworkInterfaces: 3,
      Ipv4AddressesPerInterface: 10,
      DefaultNetworkCardIndex: 0,
      NetworkCards: [{ NetworkCardIndex: 0, MaximumNetworkInterfaces: 3 }],
      EncryptionInTransitSupported: false,
    },
  },
  "c6g.medium": {
    InstanceType: "c6g.medium",
    SupportedUsageClasses: ["on-demand", "spot"],
    ProcessorInfo: { SupportedArchitectures: ["arm64"], SustainedClockSpeedInGhz: 2.5, Manufacturer: "AWS" },
    VCpuInfo: { DefaultVCpus: 1 },
    MemoryInfo: { SizeInMiB: 2048 },
    Hypervisor: "nitro",
    EbsInfo: { EbsOptimizedSupport: "default", EbsOptimizedInfo: { MaximumBandwidthInMbps: 4750 } },
    NetworkInfo: {
      MaximumNetworkInterfaces: 2,
      Ipv4AddressesPerInterface: 4,
      DefaultNetworkCardIndex: 0,
      NetworkCards: [{ NetworkCardIndex: 0, MaximumNetworkInterfaces: 2 }],
      EncryptionInTransitSupported: false,
    },
  },
  // Four network cards of 15 ENIs: the VPC CNI uses only the default card's, 15 * (50 - 1) + 2 = 737 pods.
  "p4d.24xlarge": {
    InstanceType: "p4d.24xlarge",
    SupportedUsageClasses: ["on-demand", "spot"],
    ProcessorInfo: { SupportedArchitectures: ["x86_64"], SustainedClockSpeedInGhz: 3, Manufacturer: "Intel" },
    VCpuInfo: { DefaultVCpus: 96 },
    MemoryInfo: { SizeInMiB: 1179648 },
    Hypervisor: "nitro",
    InstanceStorageInfo: { TotalSizeInGB: 8000, NvmeSupport: "required" },
    GpuInfo: { Gpus: [{ Name: "A100", Manufacturer: "NVIDIA", Count: 8, MemoryInfo: { SizeInMiB: 40960 } }] },
    EbsInfo: { EbsOptimizedSupport: "default", EbsOptimizedInfo: { MaximumBandwidthInMbps: 19000 } },
    NetworkInfo: {
      MaximumNetworkInterfaces: 60,
      Ipv4AddressesPerInterface: 50,
      DefaultNetworkCardIndex: 0,
      NetworkCards: [0, 1, 2, 3].map((i) => ({ NetworkCardIndex: i, MaximumNetworkInterfaces: 15 })),
      EncryptionInTransitSupported: true,
      EfaInfo: { MaximumEfaInterfaces: 4 },
    },
  },
  "inf2.xlarge": {
    InstanceType: "inf2.xlarge",
    SupportedUsageClasses: ["on-demand", "spot"],
    ProcessorInfo: { SupportedArchitectures: ["x86_64"], SustainedClockSpeedInGhz: 3.6, Manufacturer: "AMD" },
    VCpuInfo: { DefaultVCpus: 4 },
    MemoryInfo: { SizeInMiB: 16384 },
    Hypervisor: "nitro",
    NeuronInfo: { NeuronDevices: [{ Name: "Inferentia2", Count: 1, CoreInfo: { Count: 2 } }] },
    EbsInfo: { EbsOptimizedSupport: "default", EbsOptimizedInfo: { MaximumBandwidthInMbps: 10000 } },
    NetworkInfo: {
      MaximumNetworkInterfaces: 4,
      Ipv4AddressesPerInterface: 15,
      DefaultNetworkCardIndex: 0,
      NetworkCards: [{ NetworkCardIndex: 0, MaximumNetworkInterfaces: 4 }],
      EncryptionInTransitSupported: true,
    },
  },
  // A Mac type: an architecture Karpenter does not launch.
  "mac2.metal": {
    InstanceType: "mac2.metal",
    SupportedUsageClasses: ["on-demand"],
    ProcessorInfo: { SupportedArchitectures: ["arm64_mac"], Manufacturer: "Apple" },
    VCpuInfo: { DefaultVCpus: 12 },
    MemoryInfo: { SizeInMiB: 16384 },
    NetworkInfo: { MaximumNetworkInterfaces: 8, Ipv4AddressesPerInterface: 30 },
  },
} as const;
