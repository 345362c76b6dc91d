import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

// The module object itself, not the namespace copy of its properties, so that a spy replaces what read-workload calls.
import nodeFs = require("node:fs");

import { MAX_FILE_BYTES, readWorkload } from "../../../src/planner/workload/read-workload";
import { ALIAS_BOMB } from "../../helpers/hostile-files";
import { problemsOf } from "../../helpers/problems";

const MIB = 1024 * 1024;

function folder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "planner-workload-"));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** The problems of a workload, file names relative to it. */
const problems = (target: string): readonly string[] => problemsOf(() => readWorkload(target)).map((p) => p.replace(`${target}${path.sep}`, ""));

const deployment = (name: string, spec: string, extra = "") => `apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name}, namespace: apps }
spec:${extra}
  template:
    spec:
${spec}
---
`;

describe("reading workload YAML", () => {
  it("reads the demo folder: chip's 2 replicas of 250m / 512Mi, inflate at 0, the rest skipped", () => {
    const workload = readWorkload(path.join(__dirname, "../../../templates/demo"));
    expect(workload.groups.map((g) => [g.id, g.kind, g.replicas, g.pod.cpuMillis, g.pod.memoryBytes])).toEqual([
      ["chip/chip", "Deployment", 2, 250, 512 * MIB],
      ["default/inflate", "Deployment", 0, 1000, 1.5 * 1024 * MIB],
    ]);
    expect(workload.groups[0].labels).toEqual({ "app.kubernetes.io/name": "chip", "app.kubernetes.io/version": "v1" });
    expect(workload.daemonSets).toEqual([]);
    expect(workload.warnings).toEqual([]);
  });

  it("counts the pods of each kind: replicas, a Job's parallelism within its completions, bare Pods, Lists", () => {
    const container = "      containers: [{ name: c, resources: { requests: { cpu: 100m } } }]";
    const dir = folder({
      "a.yaml": [
        deployment("d", container),
        "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: { name: s }\nspec: { replicas: 3, template: { spec: { containers: [{ name: c, resources: { requests: { cpu: 1 } } }] } } }\n---",
        "apiVersion: batch/v1\nkind: Job\nmetadata: { name: j }\nspec: { parallelism: 5, completions: 2, template: { spec: { containers: [{ name: c, resources: { requests: { cpu: 1 } } }] } } }\n---",
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: { name: cj }\nspec: { jobTemplate: { spec: { parallelism: 4, template: { spec: { containers: [{ name: c, resources: { requests: { cpu: 1 } } }] } } } } }\n---",
        "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec: { containers: [{ name: c, resources: { requests: { memory: 1Gi } } }] }\n---",
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: { name: agent, namespace: monitoring }\nspec: { template: { spec: { containers: [{ name: c, resources: { requests: { cpu: 50m, memory: 64Mi } } }] } } }\n---",
        "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: { name: r }\nspec: {}\n",
      ].join("\n"),
      "b.json": JSON.stringify({
        apiVersion: "v1",
        kind: "List",
        items: [
          { apiVersion: "apps/v1", kind: "ReplicaSet", metadata: { name: "rs" }, spec: { replicas: 2, template: { spec: { containers: [{ name: "c" }] } } } },
        ],
      }),
    });
    const workload = readWorkload(dir);
    expect(workload.groups.map((g) => [g.id, g.kind, g.replicas])).toEqual([
      ["apps/d", "Deployment", 1],
      ["default/s", "StatefulSet", 3],
      ["default/j", "Job", 2],
      ["default/cj", "CronJob", 4],
      ["default/p", "Pod", 1],
      ["default/rs", "ReplicaSet", 2],
    ]);
    expect(workload.daemonSets.map((d) => [d.id, d.pod.cpuMillis, d.pod.memoryBytes])).toEqual([["monitoring/agent", 50, 64 * MIB]]);
    expect(workload.warnings).toEqual([
      "pods without CPU or memory requests count as zero: default/rs",
      "objects of kinds that create pods, which the planner does not read, were skipped; their pods are not in the plan: Rollout default/r (argoproj.io/v1alpha1)",
    ]);
  });

  it("takes the larger of the init peak and the running sum; limits stand in for missing requests", () => {
    const dir = folder({
      "init.yaml": deployment(
        "init",
        `      initContainers:
        - { name: migrate, resources: { requests: { cpu: 500m, memory: 1Gi } } }
      containers:
        - { name: a, resources: { requests: { cpu: 100m, memory: 1Gi } } }
        - { name: b, resources: { limits: { cpu: 200m, memory: 1Gi, nvidia.com/gpu: 1 } } }`,
      ),
      // A sidecar (restartPolicy: Always) runs beside the init containers after it and beside the app:
      // init peak max(100m, 1000m + 100m) = 1100m; running 200m + 100m = 300m; so 1100m, and 64Mi.
      "sidecar.yaml": deployment(
        "sidecar",
        `      initContainers:
        - { name: proxy, restartPolicy: Always, resources: { requests: { cpu: 100m, memory: 64Mi } } }
        - { name: setup, resources: { requests: { cpu: "1" } } }
      containers:
        - { name: app, resources: { requests: { cpu: 200m } } }`,
      ),
    });
    const [init, sidecar] = readWorkload(dir).groups;
    // cpu: max(500m, 100m + 200m) = 500m; memory: max(1Gi, 1Gi + 1Gi) = 2Gi; the GPU from b's limits.
    expect(init.pod).toMatchObject({ cpuMillis: 500, memoryBytes: 2048 * MIB, extended: { "nvidia.com/gpu": 1 }, hasRequests: true });
    expect(sidecar.pod).toMatchObject({ cpuMillis: 1100, memoryBytes: 64 * MIB });
  });

  it("reads nodeSelector, required node affinity terms and tolerations", () => {
    const dir = folder({
      "a.yaml": deployment(
        "a",
        `      nodeSelector: { kubernetes.io/arch: arm64 }
      tolerations: [{ key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }]
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions: [{ key: karpenter.sh/capacity-type, operator: In, values: [on-demand] }]
              - matchExpressions: [{ key: karpenter.k8s.aws/instance-cpu, operator: Gt, values: ["4"] }]
      containers: [{ name: c, resources: { requests: { cpu: 1 } } }]`,
      ),
    });
    const { pod } = readWorkload(dir).groups[0];
    expect(pod.nodeSelector).toEqual([{ key: "kubernetes.io/arch", operator: "In", values: ["arm64"] }]);
    expect(pod.affinityTerms).toEqual([
      [{ key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] }],
      [{ key: "karpenter.k8s.aws/instance-cpu", operator: "Gt", values: ["4"] }],
    ]);
    expect(pod.tolerations).toEqual([{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }]);
  });

  it("reports every problem of every file at once, naming the file, the object and the path", () => {
    const dir = folder({
      "a.yaml": [
        deployment("bad-replicas", "      containers: [{ name: c, resources: { requests: { cpu: lots, memory: 1Gi } } }]", "\n  replicas: two"),
        deployment("no-containers", "      containers: []"),
        "apiVersion: v1\nkind: Pod\nmetadata: {}\nspec: { containers: [{ name: c }] }\n---",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: sel, namespace: apps }\nspec:\n  template:\n    spec:\n      nodeSelector: { tier: 2 }\n      containers: [{ name: c }]\n",
      ].join("\n"),
      "b.yaml": "kind: Deployment\nmetadata: { name: x\n",
    });
    expect(problems(dir)).toEqual([
      'a.yaml: document 1 (Deployment bad-replicas): spec.template.spec.containers[0].resources.requests.cpu: got "lots"; must be a CPU quantity such as "250m" or "1"',
      'a.yaml: document 1 (Deployment bad-replicas): spec.replicas: got "two"; must be a non-negative integer',
      "a.yaml: document 2 (Deployment no-containers): spec.template.spec.containers: got []; must list at least one container",
      "a.yaml: document 3 (Pod): metadata.name: got nothing; must be the object's name",
      "a.yaml: document 4 (Deployment sel): spec.template.spec.nodeSelector.tier: got 2; must be a string (quote numbers and booleans in YAML)",
      expect.stringMatching(/^b\.yaml: line 3, column 1: /),
    ]);
  });

  it("refuses negative requests and limits of every resource, as the API server does", () => {
    const dir = folder({
      "neg.yaml": deployment(
        "neg",
        `      containers:
        - { name: a, resources: { requests: { cpu: "-1", memory: 1Gi } } }
        - { name: b, resources: { requests: { memory: "-1Gi" }, limits: { cpu: -0.5, nvidia.com/gpu: -1 } } }`,
      ),
    });
    const at = "neg.yaml: document 1 (Deployment neg): spec.template.spec.containers";
    expect(problems(dir)).toEqual([
      `${at}[0].resources.requests.cpu: got "-1"; must not be negative`,
      `${at}[1].resources.limits.cpu: got -0.5; must not be negative`,
      `${at}[1].resources.limits.nvidia.com/gpu: got -1; must not be negative`,
      `${at}[1].resources.requests.memory: got "-1Gi"; must not be negative`,
    ]);
  });

  it("refuses YAML alias bombs, oversized files and bytes that are not UTF-8 before they can exhaust memory", () => {
    const dir = folder({ "bomb.yaml": ALIAS_BOMB, "big.yaml": `# ${"x".repeat(MAX_FILE_BYTES)}\n` });
    fs.writeFileSync(path.join(dir, "latin1.yaml"), Buffer.from("kind: Pod\nmetadata: { name: caf\xe9 }\n", "latin1"));
    expect(problems(dir)).toEqual([
      "big.yaml: larger than 5242880 bytes (5 MiB), the most a workload file may be (split it, or plan a folder); it was not parsed",
      "bomb.yaml: line 1: its aliases (*name) expand to more than 10000 copies of what they name: refused as a possible alias bomb; write the repeated values out",
      "latin1.yaml: line 2 is not valid UTF-8; save the file as UTF-8 (bytes in another encoding are not guessed at)",
    ]);
  });

  it("refuses what is no regular file at once: /dev/zero never ends, a FIFO waits for a writer forever", () => {
    const fifo = path.join(folder({}), "workload.yaml");
    execFileSync("mkfifo", [fifo]);
    const notRegular = "cannot be read (not a regular file: a FIFO, a device or a socket, which may never end; name a file)";
    expect(problems("/dev/zero")).toEqual([`/dev/zero: ${notRegular}`]);
    expect(problems(fifo)).toEqual([`${fifo}: ${notRegular}`]);
  });

  it("refuses a workload with no object at all, and warns of an empty file among others", () => {
    const empty = folder({ "empty.yaml": "", "dashes.yaml": "# nothing yet\n---\n---\n" });
    expect(problems(path.join(empty, "dashes.yaml"))).toEqual([
      `${path.join(empty, "dashes.yaml")}: no Kubernetes objects; the file is empty or holds only comments and "---"`,
    ]);
    expect(problems(empty)).toEqual([`${empty}: no Kubernetes objects; every file is empty or holds only comments and "---"`]);
    fs.writeFileSync(path.join(empty, "app.yaml"), deployment("a", "      containers: [{ name: c, resources: { requests: { cpu: 1 } } }]"));
    expect(readWorkload(empty).warnings).toEqual([
      `${path.join(empty, "dashes.yaml")}: no Kubernetes objects (empty, or only comments and "---"); skipped`,
      `${path.join(empty, "empty.yaml")}: no Kubernetes objects (empty, or only comments and "---"); skipped`,
    ]);
  });

  it("skips kustomize's file in a folder with a warning, and refuses it named alone", () => {
    const dir = folder({
      "kustomization.yaml": "resources:\n  - app.yaml\n",
      "app.yaml": deployment("a", "      containers: [{ name: c, resources: { requests: { cpu: 1 } } }]"),
    });
    const workload = readWorkload(dir);
    expect(workload.groups.map((g) => g.id)).toEqual(["apps/a"]);
    expect(workload.warnings).toEqual([
      `${path.join(dir, "kustomization.yaml")}: kustomize's file, skipped: the folder's manifests are planned as written, without its patches; for what kustomize renders, plan kustomize build's output`,
    ]);
    expect(problems(path.join(dir, "kustomization.yaml"))).toEqual([
      `${path.join(dir, "kustomization.yaml")}: is kustomize's file, not a manifest: plan what it renders (kustomize build <folder> > rendered.yaml)`,
    ]);
  });

  it("says why a path cannot be read, without a stack trace", () => {
    const dir = folder({ "file.yaml": "kind: Pod\n" });
    fs.symlinkSync(path.join(dir, "loop"), path.join(dir, "loop"));
    expect(() => readWorkload(path.join(dir, "file.yaml", "x"))).toThrow(
      `--workload: 1 problem\n  - ${path.join(dir, "file.yaml", "x")}: cannot be read (a folder on its path is a file)`,
    );
    expect(() => readWorkload(path.join(dir, "loop"))).toThrow(
      `--workload: 1 problem\n  - ${path.join(dir, "loop")}: cannot be read (too many symbolic links)`,
    );
  });

  it("names an unreadable subfolder and file with the reason (permission denied), every one at once", () => {
    // Tests run as root here, where chmod 000 changes nothing: the file system's refusal is simulated.
    const dir = folder({ "a.yaml": "kind: Service\n", "b.yaml": "kind: Service\n" });
    fs.mkdirSync(path.join(dir, "locked"));
    const denied = (target: string) => Object.assign(new Error(`EACCES: permission denied, open '${target}'`), { code: "EACCES" });
    /** The real function, except for paths ending in `refused`. */
    const refusing = <F>(real: F, refused: string): F =>
      ((target: fs.PathLike, ...rest: unknown[]) => {
        if (String(target).endsWith(refused)) throw denied(String(target));
        return (real as (...args: unknown[]) => unknown)(target, ...rest);
      }) as F;
    const { openSync, readdirSync } = nodeFs;
    const open = jest.spyOn(nodeFs, "openSync").mockImplementation(refusing(openSync, "b.yaml"));
    const list = jest.spyOn(nodeFs, "readdirSync").mockImplementation(refusing(readdirSync, "locked"));
    try {
      expect(problems(dir)).toEqual(["locked: cannot be read (permission denied)", "b.yaml: cannot be read (permission denied)"]);
    } finally {
      open.mockRestore();
      list.mockRestore();
    }
  });

  it("names a missing path and an empty folder", () => {
    expect(() => readWorkload("/nonexistent/planner")).toThrow("--workload: 1 problem\n  - /nonexistent/planner: no such file or folder");
    const empty = folder({ "notes.txt": "hello" });
    expect(() => readWorkload(empty)).toThrow(`--workload: 1 problem\n  - ${empty}: no .yaml, .yml or .json files in this folder`);
  });
});
