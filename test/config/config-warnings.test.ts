import { configWarnings } from "../../src/config/config-warnings";
import { parseClusterConfig } from "../../src/config/load-config";

const warningsFor = (fields: Record<string, unknown>) => configWarnings(parseClusterConfig({ name: "demo", ...fields }, "t.yaml"));

const OPEN_TO_INTERNET =
  "the Kubernetes API is open to the whole internet (cluster.publicAccessCidrs includes 0.0.0.0/0): narrow it, or set cluster.endpointPublicAccess: false, for production";
const EXEC_ON_HCP =
  "karpenter.kubernetesAuth is exec with backend.type cloud: HCP Terraform's hosted runners have no AWS CLI for `aws eks get-token`; use token, or an agent that has the AWS CLI";
const PRIVATE_ONLY = "the Kubernetes API has a private endpoint only (cluster.endpointPublicAccess: false): the Karpenter stack's runner must reach the VPC;";
const HCP = { type: "cloud", organization: "example" };

describe("configWarnings", () => {
  it("warns about the default: the public endpoint open to 0.0.0.0/0", () => {
    expect(warningsFor({})).toEqual([OPEN_TO_INTERNET]);
  });

  it("is quiet once the public endpoint is narrowed", () => {
    expect(warningsFor({ cluster: { publicAccessCidrs: ["203.0.113.0/24"] } })).toEqual([]);
  });

  it("warns about a private-only endpoint, saying what the runner needs", () => {
    expect(warningsFor({ cluster: { endpointPublicAccess: false } })).toEqual([`${PRIVATE_ONLY} run it in the VPC, or over a VPN or peering`]);
    expect(warningsFor({ cluster: { endpointPublicAccess: false }, backend: HCP })).toEqual([
      `${PRIVATE_ONLY} HCP Terraform's hosted runners cannot: use an agent in or connected to the VPC`,
    ]);
  });

  it("warns about exec authentication on HCP Terraform, and not elsewhere or with token", () => {
    const narrowed = { publicAccessCidrs: ["203.0.113.0/24"] };
    expect(warningsFor({ cluster: narrowed, backend: HCP, karpenter: { kubernetesAuth: "exec" } })).toEqual([EXEC_ON_HCP]);
    expect(warningsFor({ cluster: narrowed, backend: HCP })).toEqual([]);
    expect(warningsFor({ cluster: narrowed, karpenter: { kubernetesAuth: "exec" } })).toEqual([]);
  });

  it("gives every warning that applies, in a fixed order", () => {
    expect(warningsFor({ backend: HCP, karpenter: { kubernetesAuth: "exec" } })).toEqual([OPEN_TO_INTERNET, EXEC_ON_HCP]);
  });
});
