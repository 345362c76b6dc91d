import { qualifiedNameProblem } from "../../src/provisioners/qualified-name";

// apimachinery's IsQualifiedName, case by case; the parser's tests (node-pool-schema.test.ts) show the lines users see.
const problem = (value: string) => qualifiedNameProblem(value, "SHAPE");

describe("qualifiedNameProblem", () => {
  it.each(["a/b/c", "/name", "example.com/", "Example.com/name", "-name", "name-", "a b", ""])("gives the shape message for %j", (value) => {
    expect(problem(value)).toBe("SHAPE");
  });

  it("accepts each part at its limit, with or without a prefix", () => {
    expect(problem(`${"p".repeat(253)}/${"n".repeat(63)}`)).toBeUndefined();
    expect(problem("n".repeat(63))).toBeUndefined();
    expect(problem("node.kubernetes.io/Instance_Type.2")).toBeUndefined();
  });

  it("names the part one character over", () => {
    expect(problem(`${"p".repeat(254)}/n`)).toBe(
      "prefix part must be no more than 253 characters (it has 254): the DNS subdomain before '/' of a Kubernetes qualified name",
    );
    expect(problem(`p/${"n".repeat(64)}`)).toBe("name part must be no more than 63 characters (it has 64): the part after '/' of a Kubernetes qualified name");
  });
});
