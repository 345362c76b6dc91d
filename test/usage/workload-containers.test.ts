import { podNamesRegExp, podOwner, type WorkloadContainers } from "../../src/usage/workload-containers";

// Which workload a pod named in Prometheus belongs to: the one that runs it now, else the one whose controller names
// its pods so (a rollout's earlier pods), and the pod=~ regular expression a query sends for a batch of workloads.

const workload = (kind: string, name: string, pods: readonly string[] = []): WorkloadContainers => ({
  workload: `shop/${kind}/${name}`,
  namespace: "shop",
  kind,
  name,
  containers: [],
  pods: pods.map((p) => ({ name: p, node: undefined })),
});

describe("podOwner", () => {
  const web = workload("Deployment", "web", ["web-7c9d6f8b5-x2k4p"]);
  const webApi = workload("Deployment", "web-api");
  const db = workload("StatefulSet", "db");
  const logs = workload("DaemonSet", "logs");
  const report = workload("CronJob", "report");
  const bare = workload("Pod", "debug", ["debug"]);
  const owner = podOwner([web, webApi, db, logs, report, bare]);

  it("finds a Deployment's pods of any revision, and tells web's from web-api's", () => {
    expect(owner("shop", "web-7c9d6f8b5-x2k4p")).toBe(web);
    expect(owner("shop", "web-5d8f7c9b6-bcdfg")).toBe(web);
    expect(owner("shop", "web-api-6b7c8d9f5-qwrtz")).toBe(webApi);
  });

  it("takes a template hash and a suffix from their own alphabet (no vowels): api-agent's pod is not api's", () => {
    const api = workload("Deployment", "api");
    const agent = workload("DaemonSet", "api-agent");
    const both = podOwner([api, agent]);
    expect(both("shop", "api-agent-x7k2p")).toBe(agent);
    expect(both("shop", "api-6b7c8d9f5-x7k2p")).toBe(api);
  });

  it("finds the pods of a long name the API server cut to 58 characters before the 5 of its suffix", () => {
    // 52 characters: "<name>-7d9f8c6b5-" is 63, cut to 58 ("<name>-7d9f8"), then 5 characters.
    const long = workload("Deployment", "payments-reconciliation-ledger-exporter-batch-worker");
    expect(podOwner([long])("shop", "payments-reconciliation-ledger-exporter-batch-worker-7d9f8x2k4p")).toBe(long);
  });

  it("finds a StatefulSet's ordinals, a DaemonSet's pods, a CronJob's Jobs' pods and a bare pod by its name", () => {
    expect(owner("shop", "db-12")).toBe(db);
    expect(owner("shop", "logs-x7k2p")).toBe(logs);
    expect(owner("shop", "report-29412345-b4x9z")).toBe(report);
    expect(owner("shop", "debug")).toBe(bare);
  });

  it("owns nothing in another namespace, nor a name no controller of the state would give", () => {
    expect(owner("other", "web-7c9d6f8b5-x2k4p")).toBeUndefined();
    expect(owner("shop", "web")).toBeUndefined();
    expect(owner("shop", "db-primary")).toBeUndefined();
  });
});

describe("podNamesRegExp", () => {
  it("is the controller's pattern and the pods it does not cover", () => {
    const safe = "[bcdfghjklmnpqrstvwxz2456789]";
    expect(podNamesRegExp(workload("Deployment", "web", ["web-7c9d6f8b5-x2k4p", "web-by-hand"]))).toBe(`web-${safe}{1,10}-${safe}{5}|web-by-hand`);
    expect(podNamesRegExp(workload("Pod", "debug.v2", ["debug.v2"]))).toBe("debug\\.v2");
  });
});
