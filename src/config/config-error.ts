/**
 * A user mistake in the cluster configuration: reported as a list of one-line problems, never as a stack
 * trace. Each problem names the field path, the value found and what is allowed.
 */
export class ConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`${source}: ${problems.length} problem${problems.length === 1 ? "" : "s"}\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}
