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
    expect(owner("shop", "web-5d8f7c9b6-abcde")).toBe(web);
    expect(owner("shop", "web-api-6b7c8d9f5-qwert")).toBe(webApi);
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
    expect(podNamesRegExp(workload("Deployment", "web", ["web-7c9d6f8b5-x2k4p", "web-by-hand"]))).toBe("web-[a-z0-9]{1,10}-[a-z0-9]{5}|web-by-hand");
    expect(podNamesRegExp(workload("Pod", "debug.v2", ["debug.v2"]))).toBe("debug\\.v2");
  });
});
