import type { ConfigError } from "./config-error";

/** The mistakes of several cluster files of a fleet, each reported with its own file. */
export class ConfigErrors extends Error {
  constructor(readonly errors: readonly ConfigError[]) {
    super(errors.map((e) => e.message).join("\n"));
    this.name = "ConfigErrors";
  }
}
