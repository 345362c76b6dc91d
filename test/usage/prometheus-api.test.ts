import type { IncomingMessage, ServerResponse } from "node:http";
import { displayUrl, PrometheusApi, type PrometheusAuth, PrometheusError } from "../../src/usage/prometheus-api";
import { serveHttps } from "../helpers/local-https";
import { describeWithPrometheus, type PrometheusServer, startPrometheus } from "../helpers/prometheus-server";
import { generateTestPki, type TestPki } from "../helpers/test-pki";

// The savings report's Prometheus client against the real server (Debian's prometheus 2.42, loaded with known
// samples), and against local HTTPS stand-ins for what a real server cannot be made to do here: refuse
// credentials, answer as something else, take too long. Every failure is one line naming the server (never its
// credentials) and what to check.

const MINUTE = 60_000;
/** 2024-01-15T12:00:00Z. */
const T = Date.UTC(2024, 0, 15, 12, 0, 0);
const NONE: PrometheusAuth = { kind: "none" };

/** A gauge at 1, 2, 3 ... every minute over the half hour before T. */
function* gauge(): Generator<readonly [number, number]> {
  for (let i = 0; i <= 30; i++) yield [T - (30 - i) * MINUTE, i + 1];
}

async function expectError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PrometheusError);
    return (error as Error).message;
  }
  throw new Error("expected a PrometheusError");
}

describeWithPrometheus("PrometheusApi against the real server", () => {
  let server: PrometheusServer;
  beforeAll(async () => {
    server = await startPrometheus([
      { metric: "container_memory_working_set_bytes", labels: { namespace: "shop", pod: "web-1", container: "web" }, samples: gauge() },
    ]);
  }, 120_000);
  afterAll(() => server?.stop());

  it("runs an instant query at a given time: the latest sample at or before it", async () => {
    const api = new PrometheusApi({ url: new URL(server.url), auth: NONE, timeoutMs: 10_000 });
    const answer = await api.query('container_memory_working_set_bytes{namespace="shop"}', new Date(T - 10 * MINUTE));
    // T-10m is the 21st sample (i = 20, value 21).
    expect(answer).toEqual([
      {
        labels: { __name__: "container_memory_working_set_bytes", namespace: "shop", pod: "web-1", container: "web" },
        samples: [[(T - 10 * MINUTE) / 1000, 21]],
      },
    ]);
  });

  it("runs a range query: one sample a step, both ends included", async () => {
    const api = new PrometheusApi({ url: new URL(server.url), auth: NONE, timeoutMs: 10_000 });
    const answer = await api.queryRange("max_over_time(container_memory_working_set_bytes[5m])", new Date(T - 10 * MINUTE), new Date(T), 300);
    // At T-10m, T-5m and T: the largest of the samples in the 5 minutes before each, 21, 26 and 31.
    expect(answer.map((s) => s.samples)).toEqual([
      [
        [(T - 10 * MINUTE) / 1000, 21],
        [(T - 5 * MINUTE) / 1000, 26],
        [T / 1000, 31],
      ],
    ]);
  });

  it("keeps a path prefix, and says when the server refuses the query itself", async () => {
    const api = new PrometheusApi({ url: new URL(`${server.url}/`), auth: NONE, timeoutMs: 10_000 });
    expect(await expectError(api.query("rate(", new Date(T)))).toMatch(
      new RegExp(`^Prometheus at ${server.url.replace(/[.]/g, "\\.")} refused a query \\(bad_data: .*parse error`),
    );
  });

  it("names an unreachable server and how to reach one", async () => {
    await server.stop();
    const api = new PrometheusApi({ url: new URL(server.url), auth: NONE, timeoutMs: 10_000 });
    expect(await expectError(api.query("up", new Date(T)))).toBe(
      `cannot reach Prometheus at ${server.url} (ECONNREFUSED): check the URL, and that this machine reaches it (kubectl port-forward -n <namespace> svc/<prometheus> 9090 gives http://localhost:9090)`,
    );
  });
});

describe("PrometheusApi against stand-ins", () => {
  let pki: TestPki;
  beforeAll(() => {
    pki = generateTestPki();
  });

  /** A stand-in that records the requests it gets and answers with `answer`. */
  async function standIn(answer: (request: IncomingMessage, body: string, response: ServerResponse) => void) {
    const seen: { headers: IncomingMessage["headers"]; url: string; body: string }[] = [];
    const served = await serveHttps(pki, (request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        seen.push({ headers: request.headers, url: request.url ?? "", body });
        answer(request, body, response);
      });
    });
    return { ...served, seen };
  }

  const success = (response: ServerResponse) => {
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ status: "success", data: { resultType: "vector", result: [] } }));
  };

  it("verifies TLS with the CA given, sends the bearer token, and never shows it", async () => {
    const server = await standIn((_request, _body, response) => success(response));
    try {
      const withToken = new URL(server.url);
      const api = new PrometheusApi({ url: withToken, auth: { kind: "bearer", token: "s3cret-token" }, ca: pki.caPem, timeoutMs: 5_000 });
      expect(await api.query("up", new Date(T))).toEqual([]);
      expect(server.seen[0].headers.authorization).toBe("Bearer s3cret-token");
      expect(server.seen[0].url).toBe("/api/v1/query");
      expect(new URLSearchParams(server.seen[0].body).get("query")).toBe("up");
      // Without the CA (the system's only), the server's certificate is not trusted: no request is sent.
      const untrusted = new PrometheusApi({ url: withToken, auth: { kind: "bearer", token: "s3cret-token" }, timeoutMs: 5_000 });
      const message = await expectError(untrusted.query("up", new Date(T)));
      expect(message).toMatch(/^cannot verify Prometheus at https:\/\/127\.0\.0\.1:\d+ \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): give the CA/);
      expect(message).not.toContain("s3cret");
      expect(server.seen).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("sends basic auth, and shows the URL without its user and password", async () => {
    const server = await standIn((_request, _body, response) => {
      response.statusCode = 401;
      response.end("Unauthorized");
    });
    try {
      const url = new URL(server.url);
      url.username = "reader";
      url.password = "hunter2";
      expect(displayUrl(url)).toBe(server.url);
      const api = new PrometheusApi({ url, auth: { kind: "basic", username: "reader", password: "hunter2" }, ca: pki.caPem, timeoutMs: 5_000 });
      const message = await expectError(api.query("up", new Date(T)));
      expect(message).toBe(`Prometheus at ${server.url} refused the request (HTTP 401): check the credentials given, and that they may query`);
      expect(server.seen[0].headers.authorization).toBe(`Basic ${Buffer.from("reader:hunter2").toString("base64")}`);
    } finally {
      await server.close();
    }
  });

  it("says when the URL is not Prometheus' API (Grafana's login page), and when a query takes too long", async () => {
    const server = await standIn((request, _body, response) => {
      if (request.url === "/slow/api/v1/query") return; // never answers
      response.setHeader("content-type", "text/html");
      response.end("<html><title>Grafana</title></html>");
    });
    try {
      const grafana = new PrometheusApi({ url: new URL(server.url), auth: NONE, ca: pki.caPem, timeoutMs: 5_000 });
      expect(await expectError(grafana.query("up", new Date(T)))).toBe(
        `${server.url} does not answer as Prometheus' HTTP API (HTTP 200 on /api/v1/query, not JSON): give the address of the Prometheus server (or a compatible query endpoint), not of Grafana or a UI`,
      );
      const slow = new PrometheusApi({ url: new URL(`${server.url}/slow`), auth: NONE, ca: pki.caPem, timeoutMs: 300 });
      expect(await expectError(slow.query("up", new Date(T)))).toBe(
        `Prometheus at ${server.url}/slow did not answer within 0.3 s: a query over a long window may need longer, or the server is overloaded`,
      );
    } finally {
      await server.close();
    }
  });

  it("refuses answers that are not in Prometheus' shape, a redirect and a failing proxy, each in a line", async () => {
    const answers: Record<string, (response: ServerResponse) => void> = {
      "/odd/api/v1/query": (r) => r.end(JSON.stringify({ status: "success", data: { resultType: "vector", result: [null] } })),
      "/pairs/api/v1/query": (r) => r.end(JSON.stringify({ status: "success", data: { resultType: "vector", result: [{ metric: {}, value: 5 }] } })),
      "/login/api/v1/query": (r) => {
        r.statusCode = 302;
        r.setHeader("location", "https://sso.example.com/login");
        r.end();
      },
      "/down/api/v1/query": (r) => {
        r.statusCode = 502;
        r.end("<html>Bad Gateway</html>");
      },
    };
    const server = await standIn((request, _body, response) => answers[request.url ?? ""]?.(response));
    try {
      const at = (prefix: string) => new PrometheusApi({ url: new URL(`${server.url}/${prefix}`), auth: NONE, ca: pki.caPem, timeoutMs: 5_000 });
      expect(await expectError(at("odd").query("up", new Date(T)))).toBe(
        `${server.url}/odd answered a query with a vector that is not in Prometheus' format: is it Prometheus' API?`,
      );
      expect(await expectError(at("pairs").query("up", new Date(T)))).toBe(
        `${server.url}/pairs answered a query with a vector that is not in Prometheus' format: is it Prometheus' API?`,
      );
      expect(await expectError(at("login").query("up", new Date(T)))).toBe(
        `${server.url}/login redirected the query (HTTP 302) to https://sso.example.com/login: give the address Prometheus' API answers at (a login page in front of it needs a token instead)`,
      );
      expect(await expectError(at("down").query("up", new Date(T)))).toBe(
        `${server.url}/down failed the query (HTTP 502, not JSON): Prometheus, or a proxy in front of it, is down or overloaded`,
      );
    } finally {
      await server.close();
    }
  });
});
