import { createKubeClient, type KubeClient, KubeHttpError, KubeTransportError } from "../../../src/lambda-coredns/runtime/kube-client";
import { type FakeKubeApi, generateTestPki, type ScriptedReply, startFakeKubeApi, status, type TestPki } from "./fake-kube-api";

const PATH = "/apis/apps/v1/namespaces/kube-system/deployments/coredns";

describe("createKubeClient", () => {
  let pki: TestPki;
  let api: FakeKubeApi | undefined;

  beforeAll(() => {
    pki = generateTestPki();
  });
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  async function clientFor(script: readonly ScriptedReply[], caPem = pki.caPem): Promise<KubeClient> {
    api = await startFakeKubeApi(pki, script);
    return createKubeClient({ endpoint: new URL(api.url), caPem });
  }

  it("sends JSON with the bearer token and the given content type, and parses the answer", async () => {
    const client = await clientFor([{ status: 200, body: { kind: "Deployment" } }]);
    const answer = await client.requestJson({
      method: "PATCH",
      path: PATH,
      token: "k8s-aws-v1.abc",
      body: { spec: { replicas: 2 } },
      contentType: "application/strategic-merge-patch+json",
      timeoutMs: 2_000,
    });
    expect(answer).toEqual({ kind: "Deployment" });
    expect(api?.requests).toEqual([
      {
        method: "PATCH",
        path: PATH,
        contentType: "application/strategic-merge-patch+json",
        authorization: "Bearer k8s-aws-v1.abc",
        body: { spec: { replicas: 2 } },
      },
    ]);
  });

  it("sends a GET without a body or content type", async () => {
    const client = await clientFor([{ status: 200, body: {} }]);
    await client.requestJson({ method: "GET", path: PATH, token: "t", timeoutMs: 2_000 });
    expect(api?.requests).toEqual([{ method: "GET", path: PATH, contentType: undefined, authorization: "Bearer t", body: undefined }]);
  });

  it("turns a non-2xx answer into KubeHttpError with the Status reason and message", async () => {
    const client = await clientFor([{ status: 403, body: status(403, "Forbidden", 'deployments.apps "coredns" is forbidden') }]);
    const failure = client.requestJson({ method: "GET", path: PATH, token: "t", timeoutMs: 2_000 });
    await expect(failure).rejects.toThrow(new KubeHttpError(403, "Forbidden", 'deployments.apps "coredns" is forbidden'));
    await expect(failure).rejects.toThrow('HTTP 403 Forbidden: deployments.apps "coredns" is forbidden');
  });

  it("reports a 2xx answer that is not JSON", async () => {
    const client = await clientFor([{ status: 200, text: "<html>proxy login</html>" }]);
    await expect(client.requestJson({ method: "GET", path: PATH, token: "t", timeoutMs: 2_000 })).rejects.toThrow(
      new KubeTransportError("INVALID_JSON", "a 2xx answer whose body is not JSON: <html>proxy login</html>"),
    );
  });

  it("keeps the answer's text when an error body is not a Status object", async () => {
    const client = await clientFor([{ status: 502, text: "Bad Gateway" }]);
    await expect(client.requestJson({ method: "GET", path: PATH, token: "t", timeoutMs: 2_000 })).rejects.toThrow(
      new KubeHttpError(502, undefined, "Bad Gateway"),
    );
  });

  it("times out a request that never gets an answer", async () => {
    const client = await clientFor(["hang"]);
    const started = Date.now();
    const failure = client.requestJson({ method: "GET", path: PATH, token: "t", timeoutMs: 200 });
    await expect(failure).rejects.toThrow(new KubeTransportError("REQUEST_TIMEOUT", "no complete response within 200 ms"));
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("refuses a server whose certificate is not signed by the cluster CA", async () => {
    const client = await clientFor([{ status: 200, body: {} }], pki.otherCaPem);
    const failure = client.requestJson({ method: "GET", path: PATH, token: "t", timeoutMs: 2_000 });
    await expect(failure).rejects.toThrow(new KubeTransportError("UNABLE_TO_VERIFY_LEAF_SIGNATURE", "unable to verify the first certificate"));
    expect(api?.requests).toEqual([]);
  });

  it("reports a refused connection with its code", async () => {
    const closed = await startFakeKubeApi(pki, []);
    await closed.close();
    const client = createKubeClient({ endpoint: new URL(closed.url), caPem: pki.caPem });
    await expect(client.requestJson({ method: "GET", path: PATH, token: "t", timeoutMs: 2_000 })).rejects.toMatchObject({
      name: "KubeTransportError",
      code: "ECONNREFUSED",
    });
  });
});
