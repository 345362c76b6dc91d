import { App } from "cdktf";
import { ClusterConfig } from "../config/schema";
import { ClusterStack } from "./cluster-stack";
import { stackNames } from "./stack-names";

/** Both stacks of one cluster, in deployment order. */
export function buildStacks(app: App, config: ClusterConfig): { readonly cluster: ClusterStack } {
  const names = stackNames(config.name);
  const cluster = new ClusterStack(app, names.cluster, { config });
  return { cluster };
}
