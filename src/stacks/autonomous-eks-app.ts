import { App, type AppConfig, DISABLE_STACK_TRACE_IN_METADATA } from "cdktf";
import type { ClusterConfig } from "../config/cluster-schema";
import { ClusterStack } from "./cluster-stack";
import { KarpenterStack } from "./karpenter-stack";
import { stackNames } from "./stack-names";

/** The cdktf app that holds every cluster's stacks. */
export function createApp(config: AppConfig = {}): App {
  // Annotations would otherwise carry a stack trace, with this machine's paths, into manifest.json.
  return new App({ ...config, context: { ...config.context, [DISABLE_STACK_TRACE_IN_METADATA]: true } });
}

/** Both stacks of one cluster, in deployment order. */
export function buildStacks(app: App, config: ClusterConfig): { readonly cluster: ClusterStack; readonly karpenter: KarpenterStack } {
  const names = stackNames(config.name);
  const cluster = new ClusterStack(app, names.cluster, { config });
  const karpenter = new KarpenterStack(app, names.karpenter, { config });
  // No reference crosses the stacks (names are derived, the cluster is looked up), so cdktf cannot infer
  // the order: the Kubernetes side needs the cluster, its access entries and the controller's role first.
  karpenter.addDependency(cluster);
  return { cluster, karpenter };
}
