import { parseFlags } from "../../src/planner/cli-flags";

const SPEC = { valueFlags: ["--workload", "--region"], switches: { "--live": "; leave it out" } };

describe("parseFlags", () => {
  it("reads --flag value, --flag=value and switches", () => {
    expect(parseFlags(["--workload", "k8s/", "--region=eu-west-1", "--live"], SPEC)).toEqual({
      values: { "--workload": "k8s/", "--region": "eu-west-1" },
      lists: {},
      switches: new Set(["--live"]),
      problems: [],
    });
  });

  it("reports every problem at once, and does not take the next flag as a missing value", () => {
    expect(parseFlags(["--workload", "--live=no", "--live", "--live", "--region", "a", "--region", "b", "--bogus", "--region"], SPEC).problems).toEqual([
      "--workload: missing value",
      '--live: takes no value (got "--live=no"); leave it out',
      "--live: given twice",
      "--region: given twice",
      "--bogus: unknown argument",
      "--region: missing value",
    ]);
  });

  it("collects a repeatable flag's values in the order given (kubectl apply -f a -f b), and still refuses others given twice", () => {
    const parsed = parseFlags(["--workload", "a/", "--region", "r", "--workload=b.yaml", "--workload", "-", "--region", "s"], {
      ...SPEC,
      repeatable: ["--workload"],
    });
    expect(parsed.lists).toEqual({ "--workload": ["a/", "b.yaml", "-"] });
    expect(parsed.values).toEqual({ "--region": "r" });
    expect(parsed.problems).toEqual(["--region: given twice"]);
  });

  it("keeps an empty value for the command to judge", () => {
    expect(parseFlags(["--workload="], SPEC).values).toEqual({ "--workload": "" });
  });
});
