import { App, type AppConfig, DISABLE_STACK_TRACE_IN_METADATA } from "cdktf";
import { ValidateBinaryVersion } from "cdktf/lib/validations/validate-binary-version";
import type { ClusterConfig } from "../config/cluster-schema";
import { ClusterStack } from "./cluster-stack";
import { KarpenterStack } from "./karpenter-stack";
import { stackNames } from "./stack-names";

/**
 * The cdktf app that holds every cluster's stacks. Synthesize it with synthesizeApp: cdktf's own synth
 * validates each stack just before writing it, so a fleet whose third stack fails leaves two written.
 */
export function createApp(config: AppConfig = {}): App {
  // Annotations would otherwise carry a stack trace, with this machine's paths, into manifest.json.
  return new App({ ...config, skipValidation: true, context: { ...config.context, [DISABLE_STACK_TRACE_IN_METADATA]: true } });
}

/** What cdktf's validations say is wrong with an app (such as no Terraform for HCP Terraform's cloud block). */
export class AppValidationError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join("\n"));
    this.name = "AppValidationError";
  }
}

/**
 * cdktf's message when `terraform version` cannot run is the shell's error over several lines; the one
 * construct that runs it here is HCP Terraform's cloud block.
 */
function inWords(problem: string): string {
  if (!problem.startsWith("Could not determine version of terraform")) return problem;
  return "backend.type cloud: cdktf checks at synth that Terraform >= 1.1 is installed (HCP Terraform's cloud block), and `terraform version` did not run: put terraform on PATH";
}

/**
 * Validates every construct of every stack, then writes them all: all or nothing. The validations are
 * cdktf's own (the cloud backend's `terraform version` check, provider presence), run once each. cdktf
 * adds one more only while synthesizing, for resource moves (moveTo), which this project does not use.
 */
export function synthesizeApp(app: App): void {
  const problems = withBinaryVersionsCheckedOnce(() =>
    app.node.findAll().flatMap((construct) => construct.node.validate().map((problem) => `${construct.node.path}: ${inWords(problem)}`)),
  );
  if (problems.length > 0) throw new AppValidationError(problems);
  app.synth();
}

type BinaryVersionCheck = { readonly versionCommand: string; readonly versionConstraint: string; readonly hint?: string; validate(): string[] };

/**
 * Runs `work` with each of cdktf's binary version checks answered once per process: every stack with an HCP
 * Terraform backend runs `terraform version` (about 100 ms), a third of a 50-cluster fleet's synth. The same
 * command, constraint and hint give the same answer within one synth.
 */
function withBinaryVersionsCheckedOnce<T>(work: () => T): T {
  const prototype = ValidateBinaryVersion.prototype as unknown as BinaryVersionCheck;
  const original = prototype.validate;
  const answers = new Map<string, string[]>();
  prototype.validate = function (this: BinaryVersionCheck) {
    const key = JSON.stringify([this.versionCommand, this.versionConstraint, this.hint]);
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = original.call(this);
      answers.set(key, answer);
    }
    return [...answer];
  };
  try {
    return work();
  } finally {
    prototype.validate = original;
  }
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
