import { plural } from "./plural";
/**
 * A user mistake in an input (a cluster file, a workload file, a command-line flag): reported as every
 * problem of that source at once, one line each naming where it is, the value found and what is allowed,
 * and printed without a stack trace.
 */
export class InputError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`${source}: ${plural(problems.length, "problem")}\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "InputError";
  }
}

/** The mistakes of several sources (the files of a fleet, a workload and its cluster), reported together. */
export class InputErrors extends Error {
  constructor(readonly errors: readonly InputError[]) {
    super(errors.map((e) => e.message).join("\n"));
    this.name = "InputErrors";
  }
}
