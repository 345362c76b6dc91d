/**
 * A user mistake in the planner's input (flags, workload files, the cluster config): every problem of one
 * source at once, each naming where it is and what is allowed, printed without a stack trace. The same
 * shape as the cluster config's ConfigError, so both read alike.
 */
export class PlanInputError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`${source}: ${problems.length} problem${problems.length === 1 ? "" : "s"}\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "PlanInputError";
  }
}

/** Problems of several sources (the workload and the config), reported together. */
export class PlanInputErrors extends Error {
  constructor(readonly errors: readonly PlanInputError[]) {
    super(errors.map((e) => e.message).join("\n"));
    this.name = "PlanInputErrors";
  }
}
