import { createHash, createHmac, timingSafeEqual } from "node:crypto";

// AWS Signature Version 4 checked the way a service checks it, written from the published algorithm with
// node:crypto alone (no AWS library), so that a signer under test is not checked by itself: the canonical request
// of exactly the headers the Authorization header says were signed, the string to sign, the signing key derived
// from the secret, date, region and service, and the signature compared. A stand-in for Amazon Managed Service for
// Prometheus verifies every request with it; the AWS test suite's vectors prove it first.
// @see https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html
// @see https://github.com/awslabs/aws-c-auth/tree/main/tests/aws-signing-test-suite/v4 (get-vanilla, post-x-www-form-urlencoded)

export interface SignedRequest {
  readonly method: string;
  /** The path as sent, without the query. */
  readonly path: string;
  /** The query string as sent, without "?" ("" when none). */
  readonly query: string;
  /** Header names in any case; a repeated header's values joined with ",". */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly body: string;
}

export interface Verdict {
  readonly ok: boolean;
  /** Why not, when not. */
  readonly reason?: string;
  readonly accessKeyId?: string;
  readonly region?: string;
  readonly service?: string;
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const hmac = (key: Buffer | string, text: string) => createHmac("sha256", key).update(text, "utf8").digest();

/** RFC 3986 encoding, the unreserved characters kept, as SigV4 canonicalizes query names and values. */
const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function canonicalQuery(query: string): string {
  if (query === "") return "";
  const pairs = query.split("&").map((pair) => {
    const [name, value = ""] = pair.split("=");
    const decode = (t: string) => decodeURIComponent(t.replace(/\+/g, " "));
    return [encode(decode(name)), encode(decode(value))] as const;
  });
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([n, v]) => `${n}=${v}`).join("&");
}

/** Whether the request carries a valid signature by the holder of `secretAccessKey`. */
export function verifySigV4(request: SignedRequest, secretAccessKey: string): Verdict {
  const header = (name: string) => {
    const found = Object.entries(request.headers).find(([k]) => k.toLowerCase() === name);
    const value = found?.[1];
    return value === undefined ? undefined : typeof value === "string" ? value : value.join(",");
  };
  const authorization = header("authorization");
  const parsed = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
    authorization ?? "",
  );
  if (parsed === null) return { ok: false, reason: `no SigV4 Authorization header: ${authorization ?? "none"}` };
  const [, accessKeyId, day, region, service, signedHeaders, signature] = parsed;
  const amzDate = header("x-amz-date");
  if (amzDate === undefined || !amzDate.startsWith(day)) return { ok: false, reason: "x-amz-date missing, or not the credential scope's day" };
  const names = signedHeaders.split(";");
  if (!names.includes("host")) return { ok: false, reason: "the host header is not signed" };
  const lines = names.map((name) => `${name}:${(header(name) ?? "").trim().replace(/\s+/g, " ")}\n`);
  const payloadHash = header("x-amz-content-sha256") ?? sha256(request.body);
  if (payloadHash !== sha256(request.body)) return { ok: false, reason: "x-amz-content-sha256 is not the body's hash" };
  const canonical = [request.method, request.path, canonicalQuery(request.query), lines.join(""), signedHeaders, payloadHash].join("\n");
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonical)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day), region), service), "aws4_request");
  const expected = createHmac("sha256", key).update(stringToSign, "utf8").digest();
  const ok = timingSafeEqual(expected, Buffer.from(signature, "hex"));
  return ok ? { ok, accessKeyId, region, service } : { ok, reason: "the signature does not match", accessKeyId, region, service };
}
