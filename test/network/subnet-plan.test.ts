import { cidrsOverlap, formatCidr, parseCidr, subnetOf } from "../../src/network/cidr";
import { largestVpcPrefixFor, planSubnets } from "../../src/network/subnet-plan";

describe("cidr", () => {
  it("parses and formats", () => {
    expect(formatCidr(parseCidr("10.16.0.0/12")!)).toBe("10.16.0.0/12");
    expect(parseCidr("10.0.0.1/16")).toBeUndefined();
    expect(parseCidr("256.0.0.0/8")).toBeUndefined();
    expect(parseCidr("10.0.0.0")).toBeUndefined();
  });

  it("computes subnets like Terraform's cidrsubnet", () => {
    // cidrsubnet("10.0.0.0/16", 3, 5) = "10.0.160.0/19"
    expect(formatCidr(subnetOf(parseCidr("10.0.0.0/16")!, 19, 5))).toBe("10.0.160.0/19");
  });

  it("detects overlap", () => {
    expect(cidrsOverlap(parseCidr("10.0.0.0/16")!, parseCidr("10.0.255.0/24")!)).toBe(true);
    expect(cidrsOverlap(parseCidr("10.0.0.0/16")!, parseCidr("10.1.0.0/16")!)).toBe(false);
  });
});

describe("planSubnets", () => {
  it("gives three zones large private subnets and small public ones", () => {
    expect(planSubnets(parseCidr("10.0.0.0/16")!, ["z-a", "z-b", "z-c"])).toEqual({
      privateSubnets: [
        { zone: "z-a", cidr: "10.0.0.0/19" },
        { zone: "z-b", cidr: "10.0.32.0/19" },
        { zone: "z-c", cidr: "10.0.64.0/19" },
      ],
      publicSubnets: [
        { zone: "z-a", cidr: "10.0.224.0/21" },
        { zone: "z-b", cidr: "10.0.232.0/21" },
        { zone: "z-c", cidr: "10.0.240.0/21" },
      ],
    });
  });

  it("never overlaps, for every zone count and VPC size allowed", () => {
    for (let zones = 2; zones <= 6; zones++) {
      for (let prefix = 16; prefix <= largestVpcPrefixFor(zones); prefix++) {
        const plan = planSubnets(
          parseCidr(`10.0.0.0/${prefix}`)!,
          Array.from({ length: zones }, (_, i) => `z${i}`),
        );
        const all = [...plan.privateSubnets, ...plan.publicSubnets].map((s) => parseCidr(s.cidr)!);
        all.forEach((a, i) => {
          for (const b of all.slice(i + 1)) expect(cidrsOverlap(a, b)).toBe(false);
        });
        for (const a of all) expect(cidrsOverlap(a, parseCidr(`10.0.0.0/${prefix}`)!)).toBe(true);
      }
    }
  });
});
