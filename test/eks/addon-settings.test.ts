import { clusterProblems } from "../helpers/problems";

describe("addons and coreDns settings", () => {
  it("takes default, latest or a pinned add-on version, and says what else it could be", () => {
    expect(clusterProblems({ addons: { "vpc-cni": { version: "latest" }, "kube-proxy": { version: "v1.33.0-eksbuild.2" }, "metrics-server": {} } })).toEqual(
      [],
    );
    expect(clusterProblems({ addons: { "vpc-cni": { version: "1.19" } } })).toEqual([
      `addons.vpc-cni.version: got "1.19"; must be "default" (EKS's default for the cluster's Kubernetes version), "latest", or a version such as v1.19.2-eksbuild.1`,
    ]);
  });

  it("names the add-ons it knows when one is misspelled", () => {
    expect(clusterProblems({ addons: { "metric-server": {} } })).toEqual([
      "addons.metric-server: unknown key; allowed keys: vpc-cni, kube-proxy, eks-pod-identity-agent, aws-ebs-csi-driver, metrics-server (did you mean metrics-server?)",
    ]);
  });

  it("pins CoreDNS in add-on mode only: the Lambda leaves EKS's own CoreDNS as it is", () => {
    expect(clusterProblems({ coreDns: { version: "v1.11.4-eksbuild.2" } })).toEqual([]);
    expect(clusterProblems({ coreDns: { mode: "lambda", version: "latest" } })).toEqual([
      'coreDns.version: got "latest"; applies to mode addon only; in lambda mode CoreDNS stays the self-managed copy EKS installed',
    ]);
  });
});
