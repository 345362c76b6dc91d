import type { InstanceCatalogue } from "../instance-catalogue";

export async function loadLiveCatalogue(_region: string, _o: { env: NodeJS.ProcessEnv; progress: (l: string) => void }): Promise<InstanceCatalogue> {
  throw new Error("not yet");
}
