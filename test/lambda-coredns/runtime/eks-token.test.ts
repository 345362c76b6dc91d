import { createHash, createHmac } from "node:crypto";
import { type AwsCredentials, EKS_TOKEN_PREFIX, mintEksToken, stsHostname } from "../../../src/lambda-coredns/runtime/eks-token";

const CREDENTIALS: AwsCredentials = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
  sessionToken: "FwoGZXIvYXdzEXAMPLE/SESSION+TOKEN==",
};
const SIGNING_DATE = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));

function decode(token: string): URL {
  return new URL(Buffer.from(token.slice(EKS_TOKEN_PREFIX.length), "base64url").toString("utf8"));
}

/**
 * SigV4 recomputed from the URL alone, the way STS checks it when EKS forwards the token, so the test does
 * not trust the signer it is testing.
 */
function expectedSignature(url: URL, clusterName: string, secretAccessKey: string): string {
  const hmac = (key: string | Buffer, data: string): Buffer => createHmac("sha256", key).update(data, "utf8").digest();
  const sha256 = (data: string): string => createHash("sha256").update(data, "utf8").digest("hex");
  const rfc3986 = (s: string): string => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const params = [...url.searchParams.entries()].filter(([key]) => key !== "X-Amz-Signature");
  const canonicalQuery = params
    .map(([key, value]) => `${rfc3986(key)}=${rfc3986(value)}`)
    .sort()
    .join("&");
  const canonicalRequest = ["GET", "/", canonicalQuery, `host:${url.host}\nx-k8s-aws-id:${clusterName}\n`, "host;x-k8s-aws-id", sha256("")].join("\n");
  const amzDate = url.searchParams.get("X-Amz-Date") ?? "";
  const [, date, region, service] = (url.searchParams.get("X-Amz-Credential") ?? "").split("/");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), service), "aws4_request");
  return createHmac("sha256", signingKey).update(stringToSign, "utf8").digest("hex");
}

describe("mintEksToken", () => {
  const mint = (overrides: Partial<Parameters<typeof mintEksToken>[0]> = {}): Promise<string> =>
    mintEksToken({ clusterName: "autonomous-eks", region: "eu-west-1", credentials: CREDENTIALS, signingDate: SIGNING_DATE, ...overrides });

  it("is k8s-aws-v1. followed by unpadded base64url", async () => {
    const token = await mint();
    expect(token.startsWith("k8s-aws-v1.")).toBe(true);
    expect(token.slice("k8s-aws-v1.".length)).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(token).not.toContain("=");
  });

  it("encodes a pre-signed STS GetCallerIdentity URL that expires in 60 seconds and signs x-k8s-aws-id", async () => {
    const url = decode(await mint());
    expect(url.protocol).toBe("https:");
    expect(url.host).toBe("sts.eu-west-1.amazonaws.com");
    expect(url.pathname).toBe("/");
    expect(url.searchParams.get("Action")).toBe("GetCallerIdentity");
    expect(url.searchParams.get("Version")).toBe("2011-06-15");
    expect(url.searchParams.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    expect(url.searchParams.get("X-Amz-Credential")).toBe("AKIDEXAMPLE/20250102/eu-west-1/sts/aws4_request");
    expect(url.searchParams.get("X-Amz-Date")).toBe("20250102T030405Z");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("60");
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("host;x-k8s-aws-id");
    expect(url.searchParams.get("X-Amz-Security-Token")).toBe(CREDENTIALS.sessionToken);
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("carries only the query parameters the EKS authenticator allows", async () => {
    const keys = [...decode(await mint()).searchParams.keys()].sort();
    expect(keys).toEqual([
      "Action",
      "Version",
      "X-Amz-Algorithm",
      "X-Amz-Credential",
      "X-Amz-Date",
      "X-Amz-Expires",
      "X-Amz-Security-Token",
      "X-Amz-Signature",
      "X-Amz-SignedHeaders",
    ]);
  });

  it("has a signature STS can recompute from the URL and the cluster name", async () => {
    const url = decode(await mint());
    expect(url.searchParams.get("X-Amz-Signature")).toBe(expectedSignature(url, "autonomous-eks", CREDENTIALS.secretAccessKey));
  });

  it("omits X-Amz-Security-Token for long-term keys", async () => {
    const url = decode(await mint({ credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: CREDENTIALS.secretAccessKey } }));
    expect(url.searchParams.has("X-Amz-Security-Token")).toBe(false);
    expect(url.searchParams.get("X-Amz-Signature")).toBe(expectedSignature(url, "autonomous-eks", CREDENTIALS.secretAccessKey));
  });

  it("is deterministic for one instant and bound to the cluster name", async () => {
    const first = await mint();
    expect(await mint()).toBe(first);
    const other = await mint({ clusterName: "another-cluster" });
    expect(decode(other).searchParams.get("X-Amz-Signature")).not.toBe(decode(first).searchParams.get("X-Amz-Signature"));
  });

  it("never carries the secret access key", async () => {
    const token = await mint();
    expect(decode(token).toString()).not.toContain(CREDENTIALS.secretAccessKey);
    expect(decode(token).toString()).not.toContain(encodeURIComponent(CREDENTIALS.secretAccessKey));
  });

  it("uses the China partition's STS host in cn regions", async () => {
    const url = decode(await mint({ region: "cn-northwest-1" }));
    expect(url.host).toBe("sts.cn-northwest-1.amazonaws.com.cn");
    expect(url.searchParams.get("X-Amz-Credential")).toBe("AKIDEXAMPLE/20250102/cn-northwest-1/sts/aws4_request");
  });
});

describe("stsHostname", () => {
  it.each([
    ["us-east-1", "sts.us-east-1.amazonaws.com"],
    ["us-gov-west-1", "sts.us-gov-west-1.amazonaws.com"],
    ["cn-north-1", "sts.cn-north-1.amazonaws.com.cn"],
  ])("%s → %s", (region, host) => {
    expect(stsHostname(region)).toBe(host);
  });

  it("refuses ISO partitions instead of guessing their domain", () => {
    expect(() => stsHostname("us-iso-east-1")).toThrow('AWS_REGION "us-iso-east-1" is in an ISO partition, whose STS domain this Lambda does not support');
  });
});
