import { configWarnings } from "../../src/config/config-warnings";
import { config } from "../helpers/synth-app";

const warningsFor = (fields: Record<string, unknown>) => configWarnings(config(fields));

const OPEN_TO_INTERNET =
  "the Kubernetes API is open to the whole internet (cluster.publicAccessCidrs includes 0.0.0.0/0): list only the ranges that deploy and operate the cluster, for production";
const EXEC_ON_HCP =
  "karpenter.kubernetesAuth is exec with backend.type cloud: HCP Terraform's hosted runners (backend.executionMode: remote) have no AWS CLI for `aws eks get-token`; use token, or an agent that has the AWS CLI";
const HCP_NARROWED =
  "cluster.publicAccessCidrs admits only the listed ranges, and HCP Terraform's hosted runners (backend.executionMode: remote) come from addresses it does not publish, so the Karpenter stack's helm and kubectl calls would be refused: run the workspaces in agent execution mode with an HCP Terraform agent in or next to the VPC (and allow its address, or rely on the private endpoint), then set backend.executionMode: agent; see docs/pipelines.md";
const PRIVATE_ONLY = "the Kubernetes API is private (cluster.publicAccessCidrs lists no range): the Karpenter stack's runner must reach the VPC;";
const OUTSIDE = "run it in the VPC or over a VPN or peering, or list its address in cluster.publicAccessCidrs (203.0.113.7/32)";
const EVERYONE = { publicAccessCidrs: ["0.0.0.0/0"] };
const HCP = { type: "cloud", organization: "example" };

describe("configWarnings", () => {
  it("says what the default, a private API, asks of the runner", () => {
    expect(warningsFor({})).toEqual([`${PRIVATE_ONLY} ${OUTSIDE}`]);
  });

  it("warns about a public endpoint open to 0.0.0.0/0", () => {
    expect(warningsFor({ cluster: EVERYONE })).toEqual([OPEN_TO_INTERNET]);
  });

  it("is quiet once the public endpoint is narrowed", () => {
    expect(warningsFor({ cluster: { publicAccessCidrs: ["203.0.113.0/24"] } })).toEqual([]);
  });

  it("warns about a private-only endpoint, saying what the runner needs", () => {
    expect(warningsFor({ cluster: { endpointPublicAccess: false } })).toEqual([`${PRIVATE_ONLY} ${OUTSIDE}`]);
    expect(warningsFor({ cluster: { endpointPublicAccess: false }, backend: HCP })).toEqual([
      `${PRIVATE_ONLY} HCP Terraform's hosted runners (backend.executionMode: remote) cannot: run the workspaces in agent execution mode, with an agent in or connected to the VPC, and set backend.executionMode: agent`,
    ]);
    expect(warningsFor({ cluster: { endpointPublicAccess: false }, backend: { ...HCP, executionMode: "agent" } })).toEqual([`${PRIVATE_ONLY} ${OUTSIDE}`]);
  });

  it("warns that HCP Terraform's hosted runners cannot be allowlisted, and not for agents or local runs", () => {
    const narrowed = { publicAccessCidrs: ["203.0.113.0/24"] };
    expect(warningsFor({ cluster: narrowed, backend: HCP })).toEqual([HCP_NARROWED]);
    expect(warningsFor({ cluster: narrowed, backend: { ...HCP, executionMode: "remote" } })).toEqual([HCP_NARROWED]);
    expect(warningsFor({ cluster: narrowed, backend: { ...HCP, executionMode: "agent" } })).toEqual([]);
    expect(warningsFor({ cluster: narrowed, backend: { ...HCP, executionMode: "local" } })).toEqual([]);
    expect(warningsFor({ cluster: narrowed, backend: { type: "s3", bucket: "acme-state" } })).toEqual([]);
  });

  it("warns about exec authentication on HCP Terraform's hosted runners, and not on agents, elsewhere or with token", () => {
    const narrowed = { publicAccessCidrs: ["203.0.113.0/24"] };
    const agent = { ...HCP, executionMode: "agent" };
    expect(warningsFor({ cluster: narrowed, backend: agent, karpenter: { kubernetesAuth: "exec" } })).toEqual([]);
    expect(warningsFor({ cluster: EVERYONE, backend: HCP, karpenter: { kubernetesAuth: "exec" } })).toEqual([OPEN_TO_INTERNET, EXEC_ON_HCP]);
    expect(warningsFor({ cluster: narrowed, karpenter: { kubernetesAuth: "exec" } })).toEqual([]);
  });

  it("refuses executionMode for a backend other than cloud", () => {
    expect(() => config({ backend: { type: "s3", bucket: "acme-state", executionMode: "agent" } })).toThrow(
      'backend.executionMode: got "agent"; does not apply to backend type s3; its fields are bucket, keyPrefix, region',
    );
  });

  describe("the Kubernetes version's support, on EKS's calendar as of 2026-11-23", () => {
    const narrowed = { publicAccessCidrs: ["203.0.113.0/24"] };
    const versionWarnings = (kubernetesVersion: string, upgradePolicy = "extended") =>
      warningsFor({ kubernetesVersion, cluster: { ...narrowed, upgradePolicy } });

    it("is quiet for versions in standard support beyond the next 90 days", () => {
      expect(versionWarnings("1.35")).toEqual([]);
      expect(versionWarnings("1.36")).toEqual([]);
    });

    it("warns that a version leaving standard support soon will cost more, or be upgraded by EKS", () => {
      const leaves = "Kubernetes 1.34 leaves EKS standard support on 2026-12-02 (EKS's calendar as of 2026-11-23): from then on";
      const upgrade = "upgrade to 1.35 before then (kubernetesVersion; docs/operations.md, Upgrades)";
      expect(versionWarnings("1.34")).toEqual([
        `${leaves} the control plane is billed extended support, six times the standard price (npm run plan prices it); ${upgrade}`,
      ]);
      expect(versionWarnings("1.34", "standard")).toEqual([
        `${leaves} EKS upgrades the control plane by itself (cluster.upgradePolicy is standard), out of Terraform's hands; ${upgrade}`,
      ]);
    });

    it("warns that a version in extended support costs six times as much, and that upgradePolicy standard cannot leave it", () => {
      const warning =
        "Kubernetes 1.33 left EKS standard support on 2026-07-29 (EKS's calendar as of 2026-11-23): a cluster on it is in extended support, billed at six times the standard price (npm run plan prices it)";
      const upgrade = "upgrade to 1.34 (kubernetesVersion; docs/operations.md, Upgrades)";
      expect(versionWarnings("1.33")).toEqual([`${warning}; ${upgrade}`]);
      expect(versionWarnings("1.33", "standard")).toEqual([
        `${warning}; cluster.upgradePolicy standard cannot take a cluster out of extended support once it is in it; ${upgrade}`,
      ]);
      // 1.32's next version is in extended support too: the warning names where the climb ends.
      expect(versionWarnings("1.32")).toEqual([
        "Kubernetes 1.32 left EKS standard support on 2026-03-23 (EKS's calendar as of 2026-11-23): a cluster on it is in extended support, billed at six times the standard price (npm run plan prices it); upgrade to 1.33, then on to 1.34, the oldest in standard support (kubernetesVersion; docs/operations.md, Upgrades)",
      ]);
    });

    it("warns that EKS is about to stop running a version", () => {
      expect(versionWarnings("1.31")).toEqual([
        "Kubernetes 1.31 leaves EKS extended support on 2026-11-26 (EKS's calendar as of 2026-11-23): then EKS creates no cluster on it and upgrades existing control planes by itself; upgrade to 1.32 now, then on to 1.34, the oldest in standard support (kubernetesVersion; docs/operations.md, Upgrades)",
      ]);
    });
  });

  it("gives every warning that applies, in a fixed order", () => {
    expect(warningsFor({ cluster: EVERYONE, backend: HCP, karpenter: { kubernetesAuth: "exec" } })).toEqual([OPEN_TO_INTERNET, EXEC_ON_HCP]);
  });
});
