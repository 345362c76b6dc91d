/** IPv4 CIDR arithmetic for planning subnets at synth time, so the planned ranges are visible in review. */

export interface Ipv4Cidr {
  /** The network address as an unsigned 32-bit integer. */
  readonly network: number;
  readonly prefixLength: number;
}

const CIDR_PATTERN = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;
const ADDRESS_PATTERN = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** "a.b.c.d" as an unsigned 32-bit integer; undefined for anything else (a host name, a CIDR, IPv6, 256). */
export function parseIpv4(text: string): number | undefined {
  const match = ADDRESS_PATTERN.exec(text);
  if (!match) return undefined;
  const octets = match.slice(1, 5).map(Number);
  if (octets.some((o) => o > 255)) return undefined;
  return octets.reduce((acc, octet) => acc * 256 + octet, 0);
}

/** Parses "a.b.c.d/n"; returns undefined for anything else, including host bits set (10.0.0.1/16). */
export function parseCidr(text: string): Ipv4Cidr | undefined {
  const match = CIDR_PATTERN.exec(text);
  if (!match) return undefined;
  const prefixLength = Number(match[5]);
  const address = parseIpv4(match.slice(1, 5).join("."));
  if (address === undefined || prefixLength > 32) return undefined;
  const size = 2 ** (32 - prefixLength);
  if (address % size !== 0) return undefined;
  return { network: address, prefixLength };
}

export function formatCidr(cidr: Ipv4Cidr): string {
  const octets = [24, 16, 8, 0].map((shift) => Math.floor(cidr.network / 2 ** shift) % 256);
  return `${octets.join(".")}/${cidr.prefixLength}`;
}

/** The index-th block of `newPrefixLength` inside `parent` (Terraform's cidrsubnet, in TypeScript). */
export function subnetOf(parent: Ipv4Cidr, newPrefixLength: number, index: number): Ipv4Cidr {
  const blockSize = 2 ** (32 - newPrefixLength);
  return { network: parent.network + index * blockSize, prefixLength: newPrefixLength };
}

export function cidrsOverlap(a: Ipv4Cidr, b: Ipv4Cidr): boolean {
  const aEnd = a.network + 2 ** (32 - a.prefixLength);
  const bEnd = b.network + 2 ** (32 - b.prefixLength);
  return a.network < bEnd && b.network < aEnd;
}

/** Whether an address (parseIpv4's number) lies inside a block. */
export function cidrContains(cidr: Ipv4Cidr, address: number): boolean {
  return address >= cidr.network && address < cidr.network + 2 ** (32 - cidr.prefixLength);
}
