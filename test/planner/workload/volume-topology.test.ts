import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readWorkload } from "../../../src/planner/workload/read-workload";
import { FIXTURES, planOf, scenario } from "../helpers";

// Persistent volumes as Karpenter reads them before it schedules (v1.14.1 volumetopology.go): a bound volume's
// node affinity, or an unbound claim's class's allowedTopologies, become zone requirements; a pod whose unbound
// claim names no class, or a class that binds Immediate, is ignored. Claims bind to the workload's volumes as the
// PersistentVolume controller binds them; what the files do not hold is assumed, and said.

const CONFIG = { name: "demo", network: { availabilityZones: ["us-east-1a", "us-east-1b", "us-east-1c"] } };
const STORAGE = path.join(FIXTURES, "volumes", "storage-classes.yaml");
const HOTEL = path.join(FIXTURES, "real-workloads", "deathstarbench-hotel");

describe("volume topology", () => {
  it("places each pod where its volume is, and holds back those Karpenter ignores, with why", () => {
    const plan = planOf(CONFIG, STORAGE);
    const asConfigured = plan.details[0];
    // search (1 CPU, its class assumed to wait for it) opens the first NodeClaim; redis (zone b by its class)
    // joins it there; reports (its volume is in zone c) needs a NodeClaim in zone c.
    expect(asConfigured.nodes.map((n) => [n.zone, n.groups.map((g) => g.id)])).toEqual([
      ["us-east-1b", ["default/search", "default/redis"]],
      ["us-east-1c", ["default/reports"]],
    ]);
    expect(scenario(plan, "as-configured").unschedulable).toEqual([
      {
        pod: "default/postgres",
        reason:
          "the StatefulSet's volumeClaimTemplates data is not bound and its StorageClass gp3-immediate binds Immediate (volumeBindingMode unset or Immediate): Karpenter ignores the pod until the volume is bound, which needs a node first; use WaitForFirstConsumer",
      },
      {
        pod: "default/uploads",
        reason:
          'PersistentVolumeClaim default/uploads is not bound and names no StorageClass, and the workload marks none as the default (EKS 1.30 and later has no default class): Karpenter ignores the pod ("unbound pvc must define a storage class")',
      },
    ]);
    expect(plan.json.warnings).toContain(
      "StorageClass gp3 is not in the workload: assumed to be in the cluster, binding WaitForFirstConsumer with no allowedTopologies: default/search",
    );
  });

  it("a class the workload marks as the default serves the claims that name none", () => {
    const withDefault = fs
      .readFileSync(STORAGE, "utf8")
      .replace("  name: gp3-zone-b\n", '  name: gp3-zone-b\n  annotations: { storageclass.kubernetes.io/is-default-class: "true" }\n');
    const groups = readWorkload(writeFile(withDefault)).groups;
    const uploads = groups.find((g) => g.id === "default/uploads");
    expect([uploads?.ignoredBecause, uploads?.pod.affinityTerms]).toEqual([
      undefined,
      [[{ key: "topology.kubernetes.io/zone", operator: "In", values: ["us-east-1b"] }]],
    ]);
  });

  it("DeathStarBench's hotel: each MongoDB claim binds to the hostPath volume of its class at once, so the class need not exist", () => {
    const workload = readWorkload(HOTEL);
    const mongo = workload.groups.filter((g) => g.name.startsWith("mongodb-"));
    expect(mongo.map((g) => [g.name, g.ignoredBecause, g.pod.affinityTerms])).toEqual(
      ["geo", "profile", "rate", "recommendation", "reservation", "user"].map((s) => [`mongodb-${s}`, undefined, []]),
    );
    expect(workload.warnings).toEqual([]);
  });

  it("without its volumes, the same claims wait for classes the files do not hold, which the plan assumes and names", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "planner-hotel-"));
    for (const file of fs.readdirSync(HOTEL).filter((f) => !f.endsWith("persistent-volume.yaml")))
      fs.copyFileSync(path.join(HOTEL, file), path.join(dir, file));
    expect(readWorkload(dir).warnings.filter((w) => w.startsWith("StorageClass"))).toEqual(
      ["geo", "profile", "rate", "recommendation", "reservation", "user"].map(
        (s) =>
          `StorageClass ${s}-storage is not in the workload: assumed to be in the cluster, binding WaitForFirstConsumer with no allowedTopologies: default/mongodb-${s}`,
      ),
    );
  });

  it("reads a StatefulSet's pod-template volume of a claim template's name as the template's claim, not as a claim the files lack", () => {
    // kubernetes/examples' cockroachdb names its volume datadir in the pod template (a claim of that name) and in
    // volumeClaimTemplates: the StatefulSet controller mounts the template's claim (updateStorage).
    const file = writeFile(`apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db, namespace: default }
spec:
  serviceName: db
  replicas: 1
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec:
      containers: [{ name: db, image: db:1, resources: { requests: { cpu: 500m, memory: 1Gi } }, volumeMounts: [{ name: datadir, mountPath: /data }] }]
      volumes: [{ name: datadir, persistentVolumeClaim: { claimName: datadir } }]
  volumeClaimTemplates:
    - metadata: { name: datadir }
      spec: { storageClassName: gp3, accessModes: [ReadWriteOnce], resources: { requests: { storage: 10Gi } } }
`);
    expect(readWorkload(file).warnings).toEqual([
      "StorageClass gp3 is not in the workload: assumed to be in the cluster, binding WaitForFirstConsumer with no allowedTopologies: default/db",
    ]);
  });
});

function writeFile(text: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "planner-volumes-")), "storage.yaml");
  fs.writeFileSync(file, text);
  return file;
}
