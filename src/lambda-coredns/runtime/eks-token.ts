/**
 * EKS bearer tokens minted with the Lambda's own credentials, in the format aws-iam-authenticator verifies:
 * "k8s-aws-v1." + base64url (no padding) of a pre-signed STS GetCallerIdentity URL that signs the header
 * `x-k8s-aws-id: <cluster name>`. Signing is local; no STS call is made here.
 * @see https://github.com/kubernetes-sigs/aws-iam-authenticator/blob/master/pkg/token/token.go
 */
import { Hash } from "@smithy/hash-node";
import { HttpRequest } from "@smithy/protocol-http";
import { SignatureV4 } from "@smithy/signature-v4";

export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

/** Structurally the same as `fromEnv()` from @aws-sdk/credential-provider-env, so tests can pass fixed keys. */
export type CredentialsProvider = () => Promise<AwsCredentials>;

export interface EksTokenRequest {
  readonly clusterName: string;
  readonly region: string;
  readonly credentials: AwsCredentials;
  /** The signing instant. */
  readonly signingDate: Date;
}

export const EKS_TOKEN_PREFIX = "k8s-aws-v1.";

/**
 * The verifier rejects X-Amz-Expires above 900 and smithy's presign default is 3600. STS ignores the value
 * anyway (a pre-signed GetCallerIdentity URL is accepted for 15 minutes after X-Amz-Date); 60 is what
 * aws-iam-authenticator itself sends.
 */
const TOKEN_EXPIRES_IN_SECONDS = 60;

/**
 * The STS host the EKS authenticator accepts for a region's partition. The ISO partitions use other
 * domains that this Lambda has never been run against, so they are refused rather than guessed.
 */
export function stsHostname(region: string): string {
  if (/^[a-z]{2}-iso/.test(region)) {
    throw new Error(`AWS_REGION "${region}" is in an ISO partition, whose STS domain this Lambda does not support`);
  }
  const domain = region.startsWith("cn-") ? "amazonaws.com.cn" : "amazonaws.com";
  return `sts.${region}.${domain}`;
}

export async function mintEksToken(request: EksTokenRequest): Promise<string> {
  const hostname = stsHostname(request.region);
  const signer = new SignatureV4({
    service: "sts",
    region: request.region,
    credentials: request.credentials,
    sha256: Hash.bind(null, "sha256"),
  });
  const presigned = await signer.presign(
    new HttpRequest({
      method: "GET",
      protocol: "https:",
      hostname,
      path: "/",
      query: { Action: "GetCallerIdentity", Version: "2011-06-15" },
      // `host` must be signed explicitly (HttpRequest does not add it); `x-k8s-aws-id` binds the token to
      // one cluster and stays a header because presign only hoists x-amz-* headers into the query.
      headers: { host: hostname, "x-k8s-aws-id": request.clusterName },
    }),
    { expiresIn: TOKEN_EXPIRES_IN_SECONDS, signingDate: request.signingDate },
  );
  const url = `https://${hostname}/?${formatQuery(presigned.query)}`;
  return EKS_TOKEN_PREFIX + Buffer.from(url, "utf8").toString("base64url");
}

function formatQuery(query: Readonly<Record<string, string | readonly string[] | null>> = {}): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const item of value === null ? [] : typeof value === "string" ? [value] : value) {
      pairs.push(`${encodeRfc3986(key)}=${encodeRfc3986(item)}`);
    }
  }
  return pairs.join("&");
}

/** SigV4 canonicalises with RFC 3986 escaping, which also escapes the characters encodeURIComponent keeps. */
function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
