import * as fs from "node:fs";
import { performance } from "node:perf_hooks";
import { readStateFile } from "../../cluster-state/read-state-file";
import { loadInstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import { clusterStateOf } from "../../planner/state/cluster-state";
import { regionOf, settleState } from "../../planner/state/settle-state";
import { priceMoves } from "../moves/moves";
import { fargateHourlyUsd } from "../savings-report";
import { generatedState } from "./generated-state";

// The savings report's speed, stage by stage, on generated clusters: reading the state file, building the
// cluster's state, settling it, and pricing the moves; each as a ratio to reading the same input.

/** Writes a generated state of `nodes` nodes and about `podsPerNode` pods each, as kubectl prints it. */
export function writeGeneratedState(file: string, nodes: number, podsPerNode: number): { readonly pods: number; readonly bytes: number } {
  const state = generatedState({ nodes, podsPerNode }) as { items: { kind: string }[] };
  const text = JSON.stringify(state);
  fs.writeFileSync(file, text);
  return { pods: state.items.filter((i) => i.kind === "Pod").length, bytes: text.length };
}

export interface Stages {
  readonly readMs: number;
  readonly stateMs: number;
  readonly settleMs: number;
  readonly movesMs: number;
  readonly actions: number;
  readonly nodesBefore: number;
  readonly nodesAfter: number;
}

export function timeStages(file: string): Stages {
  const catalogue = loadInstanceCatalogue();
  const at = new Date("2026-11-26T12:00:00Z");
  const t0 = performance.now();
  const objects = readStateFile(file);
  const t1 = performance.now();
  const state = clusterStateOf(objects, catalogue, at);
  const t2 = performance.now();
  const result = settleState(state, { catalogue, at, spotToSpot: false });
  const t3 = performance.now();
  priceMoves({ state, catalogue, region: regionOf(state, catalogue), at, spotToSpot: false }, fargateHourlyUsd(state));
  const t4 = performance.now();
  return {
    readMs: t1 - t0,
    stateMs: t2 - t1,
    settleMs: t3 - t2,
    movesMs: t4 - t3,
    actions: result.actions.length,
    nodesBefore: state.nodes.length,
    nodesAfter: result.nodes.length,
  };
}
