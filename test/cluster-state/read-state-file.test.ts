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
    const nothing = write("services.json", JSON.stringify({ kind: "List", items: [{ apiVersion: "v1", kind: "Service", metadata: { name: "s" } }] }));
    expect(problemsOf(() => readStateFile(nothing))).toEqual([
      `${nothing}: holds no Node and no Pod; the report needs the cluster's nodes and pods: kubectl get nodes,pods,nodepools.karpenter.sh,nodeclaims.karpenter.sh,ec2nodeclasses.karpenter.k8s.aws,poddisruptionbudgets,daemonsets,persistentvolumeclaims,persistentvolumes,storageclasses -A -o json > state.json`,
    ]);
    const broken = write("broken.json", '{"kind": "List", "items": [');
    expect(problemsOf(() => readStateFile(broken))[0]).toMatch(new RegExp(`^${broken}: not valid JSON: `));
  });

  it("reads a new cluster's state with nodes and no pod yet", () => {
    const state = readStateFile(write("new.json", JSON.stringify({ kind: "List", items: [node] })));
    expect(state.byKind.Node).toHaveLength(1);
    expect(state.byKind.Pod).toEqual([]);
  });

  it("reads JSON documents one after another (kubectl get ... >> state.json) as --- documents are read", () => {
    const appended = `${JSON.stringify({ kind: "List", items: [node] }, null, 4)}\n${JSON.stringify({ kind: "PodList", items: [pod("a")] })}{"kind":"List","items":[]}\n`;
    const state = readStateFile(write("appended.json", appended));
    expect(state.byKind.Node).toHaveLength(1);
    expect(state.byKind.Pod.map((p) => (p.metadata as { name: string }).name)).toEqual(["a"]);
    const broken = write("appended-broken.json", `${JSON.stringify({ kind: "List", items: [node] })}\n{"kind": "List", "items": [}\n`);
    expect(problemsOf(() => readStateFile(broken))).toEqual([`${broken}: line 2: not valid JSON: Unexpected token '}', ...""items": [} " is not valid JSON`]);
  });

  it("reads what kubectl cluster-info dump prints: a List per kind and namespace, with the containers' logs between them skipped", () => {
    const dump = [
      JSON.stringify({ kind: "NodeList", apiVersion: "v1", metadata: { resourceVersion: "1" }, items: [{ ...node, kind: undefined }] }, null, 4),
      JSON.stringify({ kind: "EventList", apiVersion: "v1", metadata: { resourceVersion: "1" }, items: [] }, null, 4),
      JSON.stringify({ kind: "PodList", apiVersion: "v1", metadata: { resourceVersion: "1" }, items: [pod("a")] }, null, 4),
      "==== START logs for container c of pod shop/a ====",
      '{"level":"info","msg":"a log line that looks like JSON"}',
      "plain text",
      "==== END logs for container c of pod shop/a ====",
      "",
    ].join("\n");
    const state = readStateFile(write("dump.json", dump));
    expect(state.byKind.Node).toHaveLength(1);
    expect(state.byKind.Pod).toHaveLength(1);
    const unfinished = write(
      "dump-cut.json",
      `${JSON.stringify({ kind: "NodeList", items: [node] })}\n==== START logs for container c of pod shop/a ====\nline\n`,
    );
    expect(problemsOf(() => readStateFile(unfinished))).toEqual([
      `${unfinished}: line 2: a container's logs start here ("==== START logs for ...") and never end`,
    ]);
  });

  it("refuses a UTF-16 file (PowerShell 5.1's >), naming the encoding and how to write UTF-8", () => {
    const file = path.join(testFolder("state-file"), "utf16.json");
    fs.writeFileSync(file, Buffer.from(`\uFEFF${JSON.stringify({ kind: "List", items: [node] })}`, "utf16le"));
    expect(problemsOf(() => readStateFile(file))).toEqual([
      `${file}: is UTF-16 (little-endian), not UTF-8: PowerShell 5.1's > and Out-File write UTF-16; write UTF-8 instead (... | Out-File -Encoding utf8 <file>, or PowerShell 7, whose > writes UTF-8)`,
    ]);
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
