// The fixed AWS prices of what the design itself runs (control plane, Fargate, NAT gateways), read from the
// dated reference table by `npm run catalogue` into src/planner/data/list-prices.json. Parsing fails loudly
// when a row is missing, so a reworded reference cannot silently produce a zero price.

import type { FargateSize, ListPrices } from "../data/list-prices";

function price(markdown: string, rowStart: string, pattern: RegExp, what: string): number {
  const row = markdown.split("\n").find((line) => line.startsWith(`| ${rowStart}`));
  const match = row === undefined ? null : pattern.exec(row);
  if (match === null) throw new Error(`list prices: no "${rowStart}" row with ${what}`);
  return Number(match[1]);
}

/**
 * Fargate's vCPU/memory combinations from the prose ("0.25 vCPU: 0.5-2 GB; ... in 1 GB steps above the
 * minimum"). For 0.25 vCPU the steps are 0.5, 1 and 2 GB, as the EKS user guide lists them.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/fargate-pod-configuration.html
 */
function fargateSizes(markdown: string): FargateSize[] {
  const sizes = [...markdown.matchAll(/([0-9.]+) vCPU: ([0-9.]+)-([0-9]+) GB/g)].map(([, vcpu, min, max]) => {
    const low = Number(min);
    const high = Number(max);
    const memoryGb = low < 1 ? [low, 1, 2].filter((gb) => gb <= high) : Array.from({ length: high - low + 1 }, (_, i) => low + i);
    return { vcpu: Number(vcpu), memoryGb };
  });
  if (sizes.length === 0) throw new Error('list prices: no Fargate sizes ("<n> vCPU: <min>-<max> GB")');
  return sizes;
}

export function listPricesFromReference(markdown: string): ListPrices {
  const collected = /Collected (\d{4}-\d{2}-\d{2})/.exec(markdown)?.[1];
  const region = /# AWS list prices, ([a-z0-9-]+)/.exec(markdown)?.[1];
  if (collected === undefined || region === undefined) throw new Error('list prices: no "# AWS list prices, <region>" title or "Collected <date>" line');
  const overhead = /adds (\d+) MB of memory/.exec(markdown)?.[1];
  if (overhead === undefined) throw new Error('list prices: no "adds <n> MB of memory" rule for Fargate');
  const dollars = /\$([0-9.]+)/;
  return {
    source: `AWS list prices for ${region} (EKS, Fargate and VPC pricing pages), collected ${collected}`,
    asOf: collected,
    region,
    eksControlPlaneHourly: {
      standard: price(markdown, "EKS control plane, standard support", dollars, "a $ price"),
      extended: price(markdown, "EKS control plane, extended support", dollars, "a $ price"),
    },
    fargate: {
      vcpuHourly: price(markdown, "Fargate, Linux/x86, vCPU", dollars, "a $ price"),
      gbHourly: price(markdown, "Fargate, Linux/x86, memory", dollars, "a $ price"),
      // EKS documents the overhead as "256 MB"; Kubernetes counts it as 256Mi (the chart values comment agrees).
      podOverheadMiB: Number(overhead),
      sizes: fargateSizes(markdown),
    },
    natGatewayHourly: price(markdown, "NAT gateway", /\$([0-9.]+) per gateway-hour/, "$ per gateway-hour"),
    natGatewayPerGb: price(markdown, "NAT gateway", /\+ \$([0-9.]+) per GB/, "$ per GB processed"),
  };
}
