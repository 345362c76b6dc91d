import * as fs from "node:fs";
import * as path from "node:path";
import { readStateFile } from "../../src/cluster-state/read-state-file";
import { problemsOf } from "../helpers/problems";
import { testFolder } from "../helpers/test-folder";

const write = (name: string, text: string) => {
  const file = path.join(testFolder("state-file"), name);
  fs.writeFileSync(file, text);
  return file;
};

const node = {
  apiVersion: "v1",
  kind: "Node",
  metadata: { name: "n1", labels: { "node.kubernetes.io/instance-type": "m5.large" }, managedFields: [{}] },
  status: { allocatable: { cpu: "1930m" } },
};
const pod = (name: string) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace: "shop" },
  spec: { nodeName: "n1", containers: [{ name: "c", image: "x", env: [{ name: "A" }] }] },
});

describe("a state file, as kubectl get -o json or -o yaml prints it", () => {
  it("reads one List of several kinds, cut to what the report reads, and counts the kinds it skips", () => {
    const list = { apiVersion: "v1", kind: "List", items: [node, pod("a"), pod("b"), { apiVersion: "v1", kind: "Service", metadata: { name: "s" } }] };
    const state = readStateFile(write("state.json", JSON.stringify(list)));
    expect(state.byKind.Node).toEqual([
      { apiVersion: "v1", kind: "Node", metadata: { name: "n1", labels: node.metadata.labels }, status: { allocatable: { cpu: "1930m" } } },
    ]);
    expect(state.byKind.Pod.map((p) => (p.spec as { containers: unknown }).containers)).toEqual([[{ name: "c", image: "x" }], [{ name: "c", image: "x" }]]);
    expect(state.warnings).toEqual(["kinds the report does not read were skipped: Service (1)"]);
    expect(state.unread.map((u) => `${u.kind}: ${u.reason}`)).toContain("NodePool: none in the file");
  });

  it("reads typed lists, whose items carry no kind, as kubectl does, and YAML documents", () => {
    const yaml = [
      "apiVersion: v1\nkind: NodeList\nitems:\n  - metadata: {name: n1}\n",
      "apiVersion: v1\nkind: PodList\nitems:\n  - metadata: {name: a, namespace: shop}\n    spec: {nodeName: n1}\n",
    ].join("---\n");
    const state = readStateFile(write("state.yaml", yaml));
    expect(state.byKind.Node.map((n) => n.kind)).toEqual(["Node"]);
    expect(state.byKind.Pod).toEqual([{ kind: "Pod", metadata: { name: "a", namespace: "shop" }, spec: { nodeName: "n1" } }]);
  });

  it("names every problem of the file at once", () => {
    const file = write("bad.json", JSON.stringify({ kind: "List", items: [node, { metadata: { name: "x" } }, "text", null] }));
    expect(problemsOf(() => readStateFile(file))).toEqual([
      `${file}: document 1: items[1]: kind: missing; each item of a List needs one (kubectl get -o json writes it)`,
      `${file}: document 1: items[2]: got string; must be a Kubernetes object or a List of them`,
      `${file}: document 1: items[3]: got null; must be a Kubernetes object or a List of them`,
    ]);
    const noPods = write("nodes.json", JSON.stringify({ kind: "List", items: [node] }));
    expect(problemsOf(() => readStateFile(noPods))).toEqual([
      `${noPods}: holds no Pod; the report needs the cluster's nodes and pods: kubectl get nodes,pods,nodepools.karpenter.sh,nodeclaims.karpenter.sh,ec2nodeclasses.karpenter.k8s.aws,poddisruptionbudgets,daemonsets,persistentvolumeclaims,persistentvolumes,storageclasses -A -o json > state.json`,
    ]);
    const broken = write("broken.json", '{"kind": "List", "items": [');
    expect(problemsOf(() => readStateFile(broken))[0]).toMatch(new RegExp(`^${broken}: not valid JSON: `));
  });

  it("reads standard input for -, and refuses what is no regular file", () => {
    const state = readStateFile("-", { stdin: () => Buffer.from(JSON.stringify({ kind: "List", items: [node, pod("a")] })) });
    expect(state.source).toBe("standard input");
    expect(state.byKind.Pod).toHaveLength(1);
    expect(problemsOf(() => readStateFile("/dev/zero"))).toEqual([
      "/dev/zero: cannot be read (not a regular file: a FIFO, a device or a socket, which may never end; name a file)",
    ]);
  });
});
