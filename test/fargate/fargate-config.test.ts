import { parseClusterConfig } from "../../src/config/load-config";
import { problemsOf } from "../helpers/problems";

const problems = (input: unknown) => problemsOf(() => parseClusterConfig(input, "test.yaml"));

describe("Fargate profiles", () => {
  it("rejects Fargate profiles that collide with the built-in ones", () => {
    expect(
      problems({
        name: "demo",
        fargate: {
          profiles: [
            { name: "karpenter", namespaces: ["monitoring"] },
            { name: "apps", namespaces: ["kube-system"] },
            { name: "apps", namespaces: ["apps"] },
          ],
        },
      }),
    ).toEqual([
      'fargate.profiles[0].name: got "karpenter"; is reserved for the profile this project creates itself; choose another name',
      'fargate.profiles[2]: got "apps"; is listed twice; each profile name may appear once',
      'fargate.profiles[1].namespaces[0]: got "kube-system"; already has a Fargate profile created by this project; remove it here',
    ]);
  });
});
