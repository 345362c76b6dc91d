import { parseSavingsArgs } from "../../src/savings/savings-cli";
import { displayUrl, PrometheusApi, PrometheusError } from "../../src/usage/prometheus-api";
import { serveHttps } from "../helpers/local-https";
import { verifySigV4 } from "../helpers/sigv4-verifier";
import { generateTestPki, type TestPki } from "../helpers/test-pki";

// Amazon Managed Service for Prometheus: every query signed with SigV4 (service aps, the workspace's region),
// checked by a local HTTPS stand-in with an independent verifier (node:crypto only), which the AWS test suite's
// published vectors prove first. An aps-workspaces URL is recognised as one, and its region read from it.

const SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

describe("the independent SigV4 verifier, on the AWS test suite's vectors", () => {
  const host = "example.amazonaws.com";
  it("accepts get-vanilla and post-x-www-form-urlencoded as published, and refuses them altered", () => {
    const getVanilla = {
      method: "GET",
      path: "/",
      query: "",
      headers: {
        host,
        "x-amz-date": "20150830T123600Z",
        authorization:
          "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
      },
      body: "",
    };
    expect(verifySigV4(getVanilla, SECRET)).toEqual({ ok: true, accessKeyId: "AKIDEXAMPLE", region: "us-east-1", service: "service" });
    const form = {
      method: "POST",
      path: "/",
      query: "",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        host,
        "x-amz-date": "20150830T123600Z",
        authorization:
          "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a",
      },
      body: "Param1=value1",
    };
    expect(verifySigV4(form, SECRET).ok).toBe(true);
    expect(verifySigV4({ ...form, body: "Param1=value2" }, SECRET)).toMatchObject({ ok: false, reason: "the signature does not match" });
    expect(verifySigV4(form, `${SECRET}x`).ok).toBe(false);
    const vanillaQuery = {
      ...getVanilla,
      query: "Param2=value2&Param1=value1",
      headers: {
        ...getVanilla.headers,
        authorization:
          "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500",
      },
    };
    expect(verifySigV4(vanillaQuery, SECRET).ok).toBe(true);
  });
});

describe("PrometheusApi with SigV4 against a stand-in that verifies it", () => {
  let pki: TestPki;
  beforeAll(() => {
    pki = generateTestPki();
  });

  async function workspace() {
    const verdicts: ReturnType<typeof verifySigV4>[] = [];
    const server = await serveHttps(pki, (request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        const [path, query = ""] = (request.url ?? "").split("?");
        const verdict = verifySigV4({ method: request.method ?? "", path, query, headers: request.headers, body }, SECRET);
        verdicts.push(verdict);
        response.setHeader("content-type", "application/json");
        if (!verdict.ok || verdict.service !== "aps" || verdict.region !== "eu-west-1") {
          response.statusCode = 403;
          response.end(JSON.stringify({ message: "The request signature we calculated does not match the signature you provided." }));
          return;
        }
        response.end(JSON.stringify({ status: "success", data: { resultType: "vector", result: [{ metric: { job: "x" }, value: [1, "1"] }] } }));
      });
    });
    return { ...server, verdicts };
  }

  const credentials = (secretAccessKey: string) => async () => ({ accessKeyId: "AKIDEXAMPLE", secretAccessKey, sessionToken: "session-token" });

  it("signs each query for service aps in the workspace's region, body and session token included", async () => {
    const server = await workspace();
    try {
      const url = new URL(`${server.url}/workspaces/ws-0123/`);
      const api = new PrometheusApi({ url, auth: { kind: "sigv4", region: "eu-west-1", credentials: credentials(SECRET) }, ca: pki.caPem, timeoutMs: 5_000 });
      expect(await api.query('up{job="x"}', new Date(Date.UTC(2026, 10, 26, 12)))).toEqual([{ labels: { job: "x" }, samples: [[1, 1]] }]);
      expect(server.verdicts).toEqual([{ ok: true, accessKeyId: "AKIDEXAMPLE", region: "eu-west-1", service: "aps" }]);
    } finally {
      await server.close();
    }
  });

  it("says which permission a refused signature needs, and never shows the keys", async () => {
    const server = await workspace();
    try {
      const url = new URL(`${server.url}/workspaces/ws-0123`);
      const api = new PrometheusApi({
        url,
        auth: { kind: "sigv4", region: "eu-west-1", credentials: credentials("wrong-secret") },
        ca: pki.caPem,
        timeoutMs: 5_000,
      });
      const failure = await api.query("up", new Date()).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(PrometheusError);
      expect((failure as Error).message).toBe(
        `Amazon Managed Service for Prometheus at ${displayUrl(url)} refused the request (HTTP 403): the AWS credentials must allow aps:QueryMetrics on the workspace, in its region`,
      );
      expect((failure as Error).message).not.toMatch(/wrong-secret|AKIDEXAMPLE|session-token/);
    } finally {
      await server.close();
    }
  });

  it("says when no AWS credentials can be found", async () => {
    const api = new PrometheusApi({
      url: new URL("https://aps-workspaces.eu-west-1.amazonaws.com/workspaces/ws-0123"),
      auth: { kind: "sigv4", region: "eu-west-1", credentials: () => Promise.reject(new Error("Could not load credentials from any providers")) },
      timeoutMs: 5_000,
    });
    await expect(api.query("up", new Date())).rejects.toThrow(
      "Amazon Managed Service for Prometheus at https://aps-workspaces.eu-west-1.amazonaws.com/workspaces/ws-0123 needs AWS credentials with aps:QueryMetrics, and none were found (Could not load credentials from any providers): set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY",
    );
  });

  it("recognises a workspace URL and its region, and refuses a Prometheus token beside it", () => {
    const parse = (url: string, env: NodeJS.ProcessEnv = {}) => parseSavingsArgs(["--state", __filename, "--prometheus", url], new Date(), env);
    expect(parse("https://aps-workspaces.eu-west-1.amazonaws.com/workspaces/ws-0123")).toMatchObject({
      usage: { target: { auth: { kind: "sigv4", region: "eu-west-1" } } },
    });
    expect(parse("https://aps-workspaces.us-gov-west-1.api.aws/workspaces/ws-0123")).toMatchObject({
      usage: { target: { auth: { kind: "sigv4", region: "us-gov-west-1" } } },
    });
    expect(parse("https://aps-workspaces.eu-west-1.amazonaws.com/workspaces/ws-0123", { PROMETHEUS_TOKEN: "t" })).toEqual({
      problems: [
        "--prometheus: an Amazon Managed Service for Prometheus workspace is queried with AWS credentials (SigV4): unset PROMETHEUS_TOKEN and PROMETHEUS_USERNAME",
      ],
    });
  });
});
