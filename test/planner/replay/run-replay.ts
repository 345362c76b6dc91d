import { runReplayCli } from "../../../src/planner/replay/replay-cli";

/** `npm run replay` with these arguments, as the script runs it: its exit code, standard output and standard error. */
export async function runReplay(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runReplayCli(args, { out: (t) => (out += t), err: (t) => (err += `${t}\n`), env });
  return { code, out, err };
}
