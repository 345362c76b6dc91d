import { readHandlerConfig } from "../../../src/lambda-coredns/runtime/handler-config";

const PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
const VALID = {
  CLUSTER_NAME: "autonomous-eks",
  CLUSTER_ENDPOINT: "https://ABCDEF0123.gr7.eu-west-1.eks.amazonaws.com",
  CLUSTER_CA_DATA: Buffer.from(PEM).toString("base64"),
  AWS_REGION: "eu-west-1",
};

describe("readHandlerConfig", () => {
  it("reads and decodes the four variables", () => {
    const config = readHandlerConfig(VALID);
    expect(config.clusterName).toBe("autonomous-eks");
    expect(config.endpoint.href).toBe("https://abcdef0123.gr7.eu-west-1.eks.amazonaws.com/");
    expect(config.caPem).toBe(PEM);
    expect(config.region).toBe("eu-west-1");
  });

  it("names every missing variable in one error", () => {
    expect(() => readHandlerConfig({})).toThrow(
      "CoreDNS fix Lambda misconfigured: CLUSTER_NAME is not set; CLUSTER_ENDPOINT is not set; CLUSTER_CA_DATA is not set; AWS_REGION is not set",
    );
  });

  it("treats a blank variable as missing", () => {
    expect(() => readHandlerConfig({ ...VALID, CLUSTER_NAME: "  " })).toThrow("CoreDNS fix Lambda misconfigured: CLUSTER_NAME is not set");
  });

  it.each([
    ["http://example.com", "plain http"],
    ["https://example.com/k8s", "a path"],
    ["https://user:pw@example.com", "credentials"],
    ["example.com", "no scheme"],
  ])("rejects CLUSTER_ENDPOINT %s (%s)", (endpoint) => {
    expect(() => readHandlerConfig({ ...VALID, CLUSTER_ENDPOINT: endpoint })).toThrow(
      `CoreDNS fix Lambda misconfigured: CLUSTER_ENDPOINT "${endpoint}" is not an https URL without path, query or credentials`,
    );
  });

  it("rejects CA data that is not a base64 PEM, without echoing it", () => {
    const run = (): unknown => readHandlerConfig({ ...VALID, CLUSTER_CA_DATA: "bm90IGEgY2VydA==" });
    expect(run).toThrow("CoreDNS fix Lambda misconfigured: CLUSTER_CA_DATA is not the base64 of a PEM certificate (EKS certificate_authority.data)");
    expect(run).not.toThrow("bm90IGEgY2VydA==");
  });

  it("rejects an invalid cluster name and region", () => {
    expect(() => readHandlerConfig({ ...VALID, CLUSTER_NAME: "-bad name", AWS_REGION: "Europe" })).toThrow(
      'CoreDNS fix Lambda misconfigured: CLUSTER_NAME "-bad name" is not an EKS cluster name (1-100 of A-Z a-z 0-9 _ -, alphanumeric first); ' +
        'AWS_REGION "Europe" is not an AWS region name',
    );
  });
});
