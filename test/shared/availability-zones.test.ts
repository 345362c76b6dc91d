import { AVAILABILITY_ZONES, zoneProblem, zonesMustBeListed } from "../../src/shared/availability-zones";
import { AWS_REGIONS } from "../../src/shared/aws-regions";

describe("the availability zone table", () => {
  it("has a row for every region the config accepts, and no other", () => {
    expect(Object.keys(AVAILABILITY_ZONES).sort()).toEqual([...AWS_REGIONS].sort());
  });

  it("holds the letters AWS's lists give, spot-checked where they are not a, b and c", () => {
    const letters = (region: string) => AVAILABILITY_ZONES[region].letters;
    expect(letters("us-east-1")).toBe("abcdef");
    expect(letters("us-west-2")).toBe("abcd");
    expect(letters("ap-northeast-2")).toBe("abcd");
    expect(letters("eu-west-2")).toBe("abcd");
    expect(letters("cn-north-1")).toBe("abd");
    expect(letters("eu-west-1")).toBe("abc");
  });

  it("does not guess about a region it has no row for: the shape is checked, the letter is not", () => {
    expect(zoneProblem("xx-test-1q", "xx-test-1", {})).toBeUndefined();
    expect(zoneProblem("xx-test-1-lax-1a", "xx-test-1", {})).toBe(
      "is not an availability zone of xx-test-1; expected xx-test-1 followed by a zone letter, such as xx-test-1a",
    );
    expect(zonesMustBeListed("xx-test-1", {})).toBe("its zones are not in this project's table (src/shared/availability-zones.ts)");
  });
});
