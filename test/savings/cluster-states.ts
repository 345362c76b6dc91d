import * as fs from "node:fs";
import * as path from "node:path";
import type { INodeClaim } from "@kubernetes-models/karpenter/karpenter.sh/v1/NodeClaim";
import type { INodePool } from "@kubernetes-models/karpenter/karpenter.sh/v1/NodePool";
import type { INode } from "kubernetes-models/v1/Node";
import type { IPod } from "kubernetes-models/v1/Pod";
import { runSavingsCli } from "../../src/savings/savings-cli";
import type { SavingsJson } from "../../src/savings/savings-report";
import {
  type ClusterObject,
  daemonSet,
  daemonSetPods,
  deploymentPods,
  ec2NodeClass,
  eksAddonDaemonSets,
  type KarpenterNodeOptions,
  karpenterNode,
  kubectlJson,
  minutesAfterBase,
  nodePool,
  stateOf,
} from "../fixtures/eks-cluster/cluster-objects";
import { testFolder } from "../helpers/test-folder";

// Small cluster states for the savings tests, made of the real-shaped fixtures (../fixtures/eks-cluster): what
// `kubectl get ... -A -o json` prints, DaemonSet pods and NodeClaims included. The arithmetic the tests work by hand:
//   - m6i.large: 1,930m and 6,903Mi allocatable, $0.096/hour on-demand (Karpenter 1.14.1's reference and price table);
//   - the EKS add-on DaemonSets take 180m and 120Mi of every node (aws-node 50m, kube-proxy 100m, ebs-csi-node
//     30m/120Mi, eks-pod-identity-agent nothing): 1,750m and 6,783Mi are left for pods.

export const AT = "2026-11-26T12:00:00Z";

/** The NodePool the small states use: m6i.large only, on-demand amd64, every node disruptable at once (100%). */
export function smallPool(disruption: NonNullable<Parameters<typeof nodePool>[0]["disruption"]> = {}): INodePool {
  return nodePool({
    name: "default",
    requirements: [
      { key: "node.kubernetes.io/instance-type", operator: "In", values: ["m6i.large"] },
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
      { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
      { key: "kubernetes.io/os", operator: "In", values: ["linux"] },
    ],
    disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m", budgets: [{ nodes: "100%" }], ...disruption },
  });
}

/** A node of the small pool, named as EKS names them, with the fields of `extra`. */
export function poolNode(name: string, zone: string, extra: Partial<KarpenterNodeOptions> = {}): { node: INode; nodeClaim: INodeClaim } {
  return karpenterNode({ name, instanceType: "m6i.large", zone, nodePool: "default", createdAt: minutesAfterBase(-2 * 24 * 60), ...extra });
}

/**
 * The EKS add-ons' DaemonSets and one pod of each on every node, as the DaemonSet controller makes them; the pods
 * alone with `podsOnly` (nodes added to a state that lists the DaemonSets already).
 */
export function addOns(
  nodes: readonly string[],
  annotate?: { readonly node: string; readonly annotations: Readonly<Record<string, string>> },
  podsOnly = false,
): ClusterObject[] {
  return eksAddonDaemonSets().flatMap((template) => [
    ...(podsOnly ? [] : [daemonSet({ ...template, nodes: [...nodes] })]),
    ...nodes.flatMap((node) =>
      daemonSetPods({
        ...template,
        nodes: [node],
        annotations:
          annotate !== undefined && annotate.node === node && template.name === "aws-node"
            ? { ...template.annotations, ...annotate.annotations }
            : template.annotations,
      }),
    ),
  ]);
}

/** A Deployment's pods of 500m and 512Mi, one per node listed (undefined: pending), labelled app: <name>. */
export function webPods(name: string, nodes: readonly (string | undefined)[], extra: Partial<Parameters<typeof deploymentPods>[0]> = {}): IPod[] {
  return deploymentPods({
    namespace: "shop",
    name,
    labels: { app: name },
    nodes,
    containers: [{ name, image: "public.ecr.aws/nginx/nginx:1.27.3", requests: { cpu: "500m", memory: "512Mi" } }],
    ...extra,
  });
}

/** The small pool, its node class, and each node with its NodeClaim. */
export function poolObjects(pool: INodePool, nodes: readonly { readonly node: INode; readonly nodeClaim?: INodeClaim }[]): ClusterObject[] {
  return [pool, ec2NodeClass(), ...nodes.flatMap((n) => (n.nodeClaim === undefined ? [n.node] : [n.node, n.nodeClaim]))];
}

export interface Report {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly json?: SavingsJson;
}

/** npm run savings -- --state on the objects, as kubectl would have printed them. */
export async function savingsOf(items: readonly ClusterObject[], flags: readonly string[] = ["--format", "json"]): Promise<Report> {
  const file = path.join(testFolder("savings-state"), "state.json");
  fs.writeFileSync(file, kubectlJson(stateOf(items)));
  let out = "";
  let err = "";
  const code = await runSavingsCli(["--state", file, ...flags], {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += `${t}\n`;
    },
    env: {},
    now: () => new Date(AT),
  });
  return { code, out, err, json: code === 0 && flags.includes("json") ? (JSON.parse(out) as SavingsJson) : undefined };
}

/** The settled nodes' names, and each action as "method kind nodes". */
export function settled(json: SavingsJson | undefined) {
  return {
    nodes: json?.converged.nodes.map((n) => n.name),
    actions: json?.converged.actions.map((a) => `${a.method} ${a.kind} ${a.nodes.join(",")}`),
  };
}

/** Why each node stays, by name. */
export const blockersOf = (json: SavingsJson | undefined) => Object.fromEntries((json?.converged.blockers ?? []).map((b) => [b.node, b.reason]));
