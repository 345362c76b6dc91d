export async function refreshCatalogueLive(
  _root: string,
  _region: string,
  _o: { env: NodeJS.ProcessEnv; progress: (l: string) => void },
): Promise<{ written: string[]; summary: string }> {
  throw new Error("not yet");
}
