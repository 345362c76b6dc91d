import {
  type DescribeInstanceTypesCommandOutput,
  type DescribeSpotPriceHistoryCommandOutput,
  EC2Client,
  type EC2ClientConfig,
  type InstanceTypeInfo,
  paginateDescribeInstanceTypes,
  paginateDescribeSpotPriceHistory,
} from "@aws-sdk/client-ec2";
import { type GetProductsCommandOutput, PricingClient, type PricingClientConfig, paginateGetProducts } from "@aws-sdk/client-pricing";
import type { SpotPrices } from "../../instance-catalogue/catalogue-file";

// The three AWS calls behind --live, each paginated to the end: DescribeInstanceTypes (what the region
// offers), DescribeSpotPriceHistory from now (the latest spot price per type and zone, as Karpenter reads
// it) and the Price List API's GetProducts (on-demand, Linux, shared tenancy). Retries and throttling are
// the SDK's own (standard mode).

/** Client settings tests and users can change: endpoint, credentials, retry strategy. */
export type AwsClientOverrides = Partial<EC2ClientConfig & PricingClientConfig>;

export interface FetchHooks {
  /** Called after each page, for the progress line. */
  readonly onPage: () => void;
}

export async function fetchInstanceTypes(region: string, overrides: AwsClientOverrides, hooks: FetchHooks): Promise<InstanceTypeInfo[]> {
  const client = new EC2Client({ region, ...(overrides as EC2ClientConfig) });
  const types: InstanceTypeInfo[] = [];
  const pages = paginateDescribeInstanceTypes({ client, pageSize: 100 }, {});
  for await (const page of pages as AsyncIterable<DescribeInstanceTypesCommandOutput>) {
    types.push(...(page.InstanceTypes ?? []));
    hooks.onPage();
  }
  return types;
}

/** The latest Linux spot price of each instance type in each zone. */
export async function fetchSpotPrices(region: string, now: Date, overrides: AwsClientOverrides, hooks: FetchHooks): Promise<SpotPrices> {
  const client = new EC2Client({ region, ...(overrides as EC2ClientConfig) });
  const latest = new Map<string, { usd: number; at: number }>();
  let newest = 0;
  const pages = paginateDescribeSpotPriceHistory({ client, pageSize: 1000 }, { ProductDescriptions: ["Linux/UNIX"], StartTime: now });
  for await (const page of pages as AsyncIterable<DescribeSpotPriceHistoryCommandOutput>) {
    for (const entry of page.SpotPriceHistory ?? []) {
      if (entry.InstanceType === undefined || entry.AvailabilityZone === undefined || entry.SpotPrice === undefined) continue;
      const key = `${entry.InstanceType} ${entry.AvailabilityZone}`;
      const at = entry.Timestamp?.getTime() ?? 0;
      const seen = latest.get(key);
      if (seen === undefined || at > seen.at) latest.set(key, { usd: Number(entry.SpotPrice), at });
      newest = Math.max(newest, at);
    }
    hooks.onPage();
  }
  const usd: Record<string, Record<string, number>> = {};
  for (const key of [...latest.keys()].sort()) {
    const [type, zone] = key.split(" ");
    usd[type] ??= {};
    usd[type][zone] = (latest.get(key) as { usd: number }).usd;
  }
  return { asOf: new Date(newest || now.getTime()).toISOString(), usd };
}

/** The Price List API answers from us-east-1 for the aws partition (and cn-northwest-1 for China). */
export function pricingRegion(region: string): string {
  return region.startsWith("cn-") ? "cn-northwest-1" : "us-east-1";
}

/** The filters Karpenter's pricing provider uses for on-demand Linux prices. */
export function onDemandFilters(region: string) {
  const term = (Field: string, Value: string) => ({ Type: "TERM_MATCH" as const, Field, Value });
  return [
    term("regionCode", region),
    term("serviceCode", "AmazonEC2"),
    term("operatingSystem", "Linux"),
    term("tenancy", "Shared"),
    term("preInstalledSw", "NA"),
    term("capacitystatus", "Used"),
    term("marketoption", "OnDemand"),
    term("licenseModel", "No License required"),
  ];
}

interface PriceListItem {
  readonly product?: { readonly attributes?: { readonly instanceType?: string } };
  readonly terms?: { readonly OnDemand?: Record<string, { readonly priceDimensions?: Record<string, { readonly pricePerUnit?: { readonly USD?: string } }> }> };
}

/** USD per hour by instance type; a type listed with several prices keeps the lowest non-zero one. */
export async function fetchOnDemandPrices(region: string, overrides: AwsClientOverrides, hooks: FetchHooks): Promise<Record<string, number>> {
  const client = new PricingClient({ region: pricingRegion(region), ...(overrides as PricingClientConfig) });
  const prices: Record<string, number> = {};
  const pages = paginateGetProducts({ client, pageSize: 100 }, { ServiceCode: "AmazonEC2", FormatVersion: "aws_v1", Filters: onDemandFilters(region) });
  for await (const page of pages as AsyncIterable<GetProductsCommandOutput>) {
    for (const text of page.PriceList ?? []) {
      const item = JSON.parse(String(text)) as PriceListItem;
      const type = item.product?.attributes?.instanceType;
      if (type === undefined) continue;
      for (const term of Object.values(item.terms?.OnDemand ?? {})) {
        for (const dimension of Object.values(term.priceDimensions ?? {})) {
          const usd = Number(dimension.pricePerUnit?.USD);
          if (usd > 0 && (prices[type] === undefined || usd < prices[type])) prices[type] = usd;
        }
      }
    }
    hooks.onPage();
  }
  return Object.fromEntries(Object.entries(prices).sort(([a], [b]) => (a < b ? -1 : 1)));
}
