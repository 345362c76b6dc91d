import { type InstanceCatalogue, loadInstanceCatalogue } from "../instance-catalogue/instance-catalogue";
import { InputError, InputErrors } from "../shared/input-error";
import type { UsageOptions } from "../usage/usage-flags";
import { loadClusterModel } from "./cluster-model";
import type { ClusterModel } from "./model";
import { buildPlan } from "./plan/build-plan";
import type { Plan } from "./plan/plan-types";
import { rightsizedWorkload, workloadObserver } from "./rightsized-workload";
import { readWorkload, STDIN } from "./workload/read-workload";
import type { Workload } from "./workload/workload-model";
import type { PodSpecOf } from "./workload/workload-objects";

// A plan from paths and flags: what the CLI runs (npm run plan, and npm run review through it).

export interface PlanOptions {
  /** The workload's files or folders (or "-" for standard input), planned as one. */
  readonly workload: readonly string[];
  /** A cluster config file; default CLUSTER_CONFIG, else the embedded default. */
  readonly config?: string;
  /** Plan for another region than the config's (prices, and the zones are then unknown). */
  readonly region?: string;
  readonly env: NodeJS.ProcessEnv;
  /** Standard input, for the workload "-". */
  readonly stdin?: () => Buffer;
  /** With --live: fetches (or reads the cache of) current AWS data for the region. */
  readonly liveCatalogue?: (region: string) => Promise<InstanceCatalogue>;
  /** With --prometheus: where usage is read, for the rightsized scenario. */
  readonly usage?: UsageOptions;
  /** The end of the usage window; now when not given. */
  readonly now?: Date;
}

function forRegion(model: ClusterModel, region: string | undefined): { model: ClusterModel; warnings: string[] } {
  if (region === undefined || region === model.region) return { model, warnings: [] };
  return {
    model: { ...model, region, zones: undefined },
    warnings: [
      `planned for ${region}, not the config's region ${model.region}: the cluster's zones there are not known, so zone constraints are planned on stand-in zones`,
    ],
  };
}

/**
 * Runs both loaders, so that the config's and the workload's problems are reported together; and `andThen`, on the
 * workload read, with its problems among them (a replica curve names the workload's objects).
 */
export function loadInputs<T = undefined>(
  options: Pick<PlanOptions, "config" | "env" | "workload" | "stdin">,
  podSpecOf?: PodSpecOf,
  andThen?: (workload: Workload) => T,
): { loaded: ReturnType<typeof loadClusterModel>; workload: Workload; more: T } {
  const problems: InputError[] = [];
  const attempt = <T>(load: () => T): T | undefined => {
    try {
      return load();
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(error);
      return undefined;
    }
  };
  const loaded = attempt(() => loadClusterModel(options.config, options.env));
  const workload = attempt(() => readWorkload(options.workload, options.stdin, podSpecOf));
  const more = workload === undefined || andThen === undefined ? undefined : attempt(() => andThen(workload));
  if (loaded === undefined || workload === undefined || problems.length > 0) throw new InputErrors(problems);
  return { loaded, workload, more: more as T };
}

/** Reads the config and the workload (all their problems at once, as InputErrors), then plans. */
export async function makePlan(given: PlanOptions): Promise<Plan> {
  // Standard input is read once, whatever reads the workload again.
  let input: Buffer | undefined;
  const stdin = given.stdin;
  const options = stdin === undefined ? given : { ...given, stdin: () => (input ??= stdin()) };
  const observer = options.usage === undefined ? undefined : workloadObserver();
  const { loaded, workload } = loadInputs(options, observer?.podSpecOf);
  const { model, warnings } = forRegion(loaded.model, options.region);
  const catalogue = options.liveCatalogue === undefined ? loadInstanceCatalogue() : await options.liveCatalogue(model.region);
  const workloadSource = options.workload.map((w) => (w === STDIN ? "standard input" : w)).join(", ");
  const rightsized =
    options.usage === undefined || observer === undefined
      ? undefined
      : await rightsizedWorkload(
          observer.workloads(),
          (podSpecOf) => readWorkload(options.workload, options.stdin, podSpecOf),
          options.usage,
          options.now ?? new Date(),
        );
  const plan = buildPlan({ cluster: model, configSource: loaded.source, catalogue, workload, workloadSource, rightsized });
  return warnings.length === 0 ? plan : { ...plan, json: { ...plan.json, warnings: [...warnings, ...plan.json.warnings] } };
}
