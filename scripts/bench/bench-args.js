// The benches' flags, checked before any measuring starts: a bench takes minutes, and a typo found at the
// end (NaN medians from "--runs abc", a TypeError from "--runs 0") wastes them.

/**
 * { runs } from `--runs N` or `--runs=N` (a positive integer; `defaultRuns` without the flag), or
 * { help: true }, or { problems } naming each bad flag with its value and what is allowed.
 */
function parseBenchArgs(argv, defaultRuns) {
  if (argv.includes("--help") || argv.includes("-h")) return { help: true };
  const problems = [];
  let runs;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const inline = arg.startsWith("--runs=") ? arg.slice("--runs=".length) : undefined;
    if (arg !== "--runs" && inline === undefined) {
      problems.push(`${arg}: unknown argument`);
      continue;
    }
    const value = inline ?? argv[i + 1];
    if (inline === undefined && value !== undefined && !value.startsWith("--")) i++;
    if (value === undefined || (inline === undefined && value.startsWith("--"))) problems.push("--runs: missing value");
    else if (runs !== undefined) problems.push("--runs: given twice");
    else if (!/^[1-9]\d*$/.test(value)) problems.push(`--runs: got ${JSON.stringify(value)}; must be a positive integer such as 5`);
    else runs = Number(value);
  }
  return problems.length > 0 ? { problems } : { runs: runs ?? defaultRuns };
}

/** The number of runs, or the help (stdout, exit 0) or the problems and the usage (stderr, exit 2). */
function benchRunsOrExit(argv, { usage, help, defaultRuns }) {
  const parsed = parseBenchArgs(argv, defaultRuns);
  if (parsed.help) {
    process.stdout.write(`${usage}\n\n${help}\n`);
    process.exit(0);
  }
  if (parsed.problems) {
    process.stderr.write(`${parsed.problems.map((p) => `  - ${p}\n`).join("")}${usage}\n`);
    process.exit(2);
  }
  return parsed.runs;
}

module.exports = { benchRunsOrExit, parseBenchArgs };
