import * as fs from "node:fs";
import { performance } from "node:perf_hooks";
import { makeReplay } from "../replay/make-replay";
import { DEFAULT_BATCH_IDLE_SECONDS, DEFAULT_BATCH_MAX_SECONDS, DEFAULT_NODE_READY_SECONDS } from "../replay/replay-timing";
import { parseReplicaCurve } from "../replay/replica-curve";
import { readWorkload } from "../workload/read-workload";
import { workloadName } from "../workload/workload-name";
import { seededRandom } from "./seeded-random";

// The replay's speed: a day of replica changes for many workloads, written as files a user would give, then
// replayed; its time as a ratio to reading the same workload and curve. Deterministic inputs (a fixed linear
// congruential sequence).

export interface GeneratedDay {
  readonly workloadFile: string;
  readonly curveFile: string;
  readonly configFile: string;
  readonly rows: number;
  readonly peakPods: number;
}

/**
 * `workloads` Deployments (50m to 200m CPU, 64Mi to 512Mi) over a day at one-minute resolution: each from 5 to 50
 * replicas and back on a daily wave, the waves within two hours of each other (the peak near 50 x workloads), on
 * the default pool with limits that do not bind.
 */
export function writeGeneratedDay(folder: string, workloads: number): GeneratedDay {
  const next = seededRandom();
  const docs: string[] = [];
  for (let i = 0; i < workloads; i++) {
    const cpu = [50, 100, 150, 200][Math.floor(next() * 4)];
    const memory = [64, 128, 256, 512][Math.floor(next() * 4)];
    docs.push(
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: app-${i}, namespace: ns-${i % 10} }\nspec:\n  replicas: 5\n  selector: { matchLabels: { app: app-${i} } }\n  template:\n    metadata: { labels: { app: app-${i} } }\n    spec:\n      containers:\n        - name: app\n          image: public.ecr.aws/nginx/nginx:1.27\n          resources: { requests: { cpu: ${cpu}m, memory: ${memory}Mi } }\n`,
    );
  }
  const lines = ["time,workload,replicas"];
  let peakPods = 0;
  for (let minute = 0; minute < 1440; minute++) {
    let total = 0;
    for (let i = 0; i < workloads; i++) {
      const phase = ((i % 24) / 24) * (2 / 24);
      const wave = (1 - Math.cos(2 * Math.PI * (minute / 1440 - phase))) / 2;
      const replicas = Math.max(1, Math.round(5 + 45 * wave));
      total += replicas;
      lines.push(`${minute * 60},ns-${i % 10}/Deployment/app-${i},${replicas}`);
    }
    peakPods = Math.max(peakPods, total);
  }
  const workloadFile = `${folder}/workload.yaml`;
  const curveFile = `${folder}/day.csv`;
  const configFile = `${folder}/cluster.yaml`;
  fs.writeFileSync(workloadFile, docs.join("---\n"));
  fs.writeFileSync(curveFile, `${lines.join("\n")}\n`);
  fs.writeFileSync(configFile, 'name: bench\nnodePools:\n  - name: default\n    limits: { cpu: "100000", memory: 100000Gi }\n');
  return { workloadFile, curveFile, configFile, rows: lines.length - 1, peakPods };
}

/** Reading the workload and the curve alone, then the whole replay (reading included), in this process. */
export function timeStages(day: GeneratedDay): { readMs: number; replayMs: number } {
  let started = performance.now();
  const workload = readWorkload([day.workloadFile]);
  const names = new Set(workload.groups.map(workloadName));
  parseReplicaCurve(fs.readFileSync(day.curveFile, "utf8"), day.curveFile, names);
  const readMs = performance.now() - started;
  started = performance.now();
  makeReplay({
    workload: [day.workloadFile],
    config: day.configFile,
    env: {},
    curve: { text: fs.readFileSync(day.curveFile, "utf8"), source: day.curveFile },
    timing: { batchIdleSeconds: DEFAULT_BATCH_IDLE_SECONDS, batchMaxSeconds: DEFAULT_BATCH_MAX_SECONDS, nodeReadySeconds: DEFAULT_NODE_READY_SECONDS },
    whatIfs: [{}],
  });
  return { readMs, replayMs: performance.now() - started };
}
