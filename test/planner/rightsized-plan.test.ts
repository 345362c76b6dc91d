import * as fs from "node:fs";
import * as path from "node:path";
import { runPlanCli } from "../../src/planner/cli";
import type { PlanJson } from "../../src/planner/plan/plan-types";
import { type ContainerOf, cpuSeries, memorySeries, type Steps } from "../helpers/cadvisor-series";
import { describeWithPrometheus, type PrometheusServer, startPrometheus } from "../helpers/prometheus-server";
import { testFolder } from "../helpers/test-folder";

// npm run plan -- --workload DIR --prometheus URL: the workload files' Deployments matched (namespace, kind and
// name) to the pods a running cluster ran for them, whose usage a real Prometheus (2.42) holds, and planned again
// at the recommended requests as the rightsized scenario. Usage by construction, as in the savings report's test
// (series as the kubelet's cAdvisor writes them, every minute; each 5-minute rate exact): web's two pods at k/1000 cores at step k of
// 0..100 (p95 95m; memory peak 200Mi: 241,172,480 bytes with 15%), api at 0.3 cores (more than its 250m: under).
// A Deployment's pods are named <name>-<template hash>-<5 characters>: the hash and suffixes below are made up,
// as a cluster's would be.

const MINUTE = 60_000;
const MIB = 1024 * 1024;
const NOW = Date.parse("2026-11-26T12:00:00Z");
const START = NOW - 500 * MINUTE;

const WORKLOAD = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 8
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: public.ecr.aws/nginx/nginx:1.27.3
          resources: {requests: {cpu: 500m, memory: 512Mi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: shop}
spec:
  replicas: 1
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
        - name: api
          image: public.ecr.aws/nginx/nginx:1.27.3
          resources: {requests: {cpu: 250m, memory: 256Mi}}
`;

const W: Steps = { start: START, steps: 100 };
const at = (pod: string, container: string): ContainerOf => ({ namespace: "shop", pod, container, node: "ip-10-0-1-10.ec2.internal" });

describeWithPrometheus("npm run plan -- --prometheus: the rightsized scenario", () => {
  let server: PrometheusServer;
  let folder: string;
  beforeAll(async () => {
    server = await startPrometheus([
      cpuSeries(W, at("web-7c9d6f8b5-x2k4p", "web"), (k) => k / 1000),
      memorySeries(W, at("web-7c9d6f8b5-x2k4p", "web"), 100 * MIB, 200 * MIB, 70),
      cpuSeries(W, at("web-7c9d6f8b5-m8qzt", "web"), (k) => k / 1000),
      memorySeries(W, at("web-7c9d6f8b5-m8qzt", "web"), 75 * MIB, 150 * MIB, 70),
      cpuSeries(W, at("api-5f7b8c9d4-r2t6w", "api"), () => 0.3),
      memorySeries(W, at("api-5f7b8c9d4-r2t6w", "api"), 50 * MIB, 100 * MIB, 70),
    ]);
    folder = testFolder("rightsized-plan");
    fs.writeFileSync(path.join(folder, "workload.yaml"), WORKLOAD);
  }, 120_000);
  afterAll(() => server?.stop());

  async function plan(format: string) {
    let out = "";
    let err = "";
    // The usage window ends now: the test's data ends at NOW.
    const io = { out: (t: string) => (out += t), err: (t: string) => (err += `${t}\n`), env: {}, now: () => new Date(NOW) };
    const argv = ["--workload", path.join(folder, "workload.yaml"), "--prometheus", server.url, "--usage-window", "500m", "--format", format];
    return { code: await runPlanCli(argv, io), out, err };
  }

  it("recommends each Deployment's requests from its pods' usage, and plans the workload at them", async () => {
    const { code, out, err } = await plan("json");
    expect([code, err]).toEqual([0, ""]);
    const json = JSON.parse(out) as PlanJson;
    expect(json.rightsizing?.workloads).toEqual([
      {
        workload: "shop/Deployment/web",
        containers: [
          {
            name: "web",
            requests: { cpu: 0.5, memoryBytes: 512 * MIB },
            usage: { cpuP95: 0.095, memoryMaxBytes: 200 * MIB },
            recommended: { cpu: 0.095, memoryBytes: 241_172_480 },
            status: "over",
          },
        ],
      },
      {
        workload: "shop/Deployment/api",
        containers: [
          {
            name: "api",
            requests: { cpu: 0.25, memoryBytes: 256 * MIB },
            usage: { cpuP95: 0.3, memoryMaxBytes: 100 * MIB },
            recommended: { cpu: 0.3, memoryBytes: 120_586_240 },
            status: "under",
          },
        ],
      },
    ]);
    const scenario = (name: string) => json.scenarios.find((s) => s.name === name);
    // As configured: 8 x 500m + 250m = 4.25 CPU of requests; right-sized: 8 x 95m + 300m = 1.06 CPU, on less.
    expect(scenario("rightsized")).toBeDefined();
    expect(scenario("rightsized")?.converged.hourlyUsd).toBeLessThan(scenario("as-configured")?.converged.hourlyUsd ?? 0);
  });

  it("lists the request changes in the Markdown a pull request can carry", async () => {
    const { code, out } = await plan("markdown");
    expect(code).toBe(0);
    const lines = out.split("\n");
    const at = lines.indexOf("### Requests from usage (the rightsized scenario)");
    expect(lines.slice(at + 2, at + 8)).toEqual([
      `CPU p95 of its 5-minute rate, memory peak + 15%, over 500m, from ${server.url}:`,
      "",
      "| container | status | requests | used (p95 / max) | recommended |",
      "|---|---|---:|---:|---:|",
      "| shop/Deployment/web web | over | 500m / 512 MiB | 95m / 200 MiB | 95m / 230 MiB |",
      "| shop/Deployment/api api | under | 250m / 256 MiB | 300m / 100 MiB | 300m / 115 MiB |",
    ]);
  });
});
