/**
 * The flags of the planner's commands (plan, catalogue): `--flag value` or `--flag=value` for value flags,
 * bare switches, every problem at once. What the values mean is each command's to check.
 */
export interface ParsedFlags {
  readonly values: Readonly<Record<string, string>>;
  /** The values of each repeatable flag, in the order given; absent when the flag was not given. */
  readonly lists: Readonly<Record<string, readonly string[]>>;
  readonly switches: ReadonlySet<string>;
  readonly problems: readonly string[];
}

export interface FlagSpec {
  readonly valueFlags: readonly string[];
  /** Switches, each with what to say when given a value ("--live=false" must not read as --live). */
  readonly switches: Readonly<Record<string, string>>;
  /** Value flags that may be given more than once (`kubectl apply -f a -f b`): their values go to `lists`. */
  readonly repeatable?: readonly string[];
}

export function parseFlags(argv: readonly string[], spec: FlagSpec): ParsedFlags {
  const problems: string[] = [];
  const values: Record<string, string> = {};
  const lists: Record<string, string[]> = {};
  const switches = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if (flag in spec.switches) {
      if (inline !== undefined) problems.push(`${flag}: takes no value (got ${JSON.stringify(arg)})${spec.switches[flag]}`);
      else if (switches.has(flag)) problems.push(`${flag}: given twice`);
      else switches.add(flag);
    } else if (spec.valueFlags.includes(flag)) {
      const value = inline ?? argv[i + 1];
      if (inline === undefined) i++;
      if (value === undefined || (inline === undefined && value.startsWith("--"))) {
        problems.push(`${flag}: missing value`);
        // The next flag is a flag of its own, not this one's value.
        if (value?.startsWith("--")) i--;
      } else if (spec.repeatable?.includes(flag)) {
        lists[flag] ??= [];
        lists[flag].push(value);
      } else if (flag in values) problems.push(`${flag}: given twice`);
      else values[flag] = value;
    } else problems.push(`${arg}: unknown argument`);
  }
  return { values, lists, switches, problems };
}

/**
 * The arguments a command runs with; or, answered before it runs, its help (exit 0) or every problem of its flags
 * with its usage line (exit 2).
 */
export function argsToRun<A extends object>(
  parsed: A | { readonly help: true } | { readonly problems: readonly string[] },
  io: { readonly out: (text: string) => void; readonly err: (text: string) => void },
  texts: { readonly help: string; readonly usage: string },
): { readonly args: Exclude<A, { readonly help: true } | { readonly problems: readonly string[] }> } | { readonly exit: 0 | 2 } {
  if ("help" in parsed) {
    io.out(texts.help);
    return { exit: 0 };
  }
  if ("problems" in parsed) {
    io.err(`${parsed.problems.map((p) => `  - ${p}`).join("\n")}\n${texts.usage}`);
    return { exit: 2 };
  }
  return { args: parsed as Exclude<A, { readonly help: true } | { readonly problems: readonly string[] }> };
}
