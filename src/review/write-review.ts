import * as fs from "node:fs";
import * as path from "node:path";
import { reviewArtifacts } from "./review-artifacts";

/**
 * Writes review/<stack>/... for every stack of a synthesized cdktf.out (npm run review synthesizes first).
 */
export function writeReview(outdir: string, reviewDir: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(outdir, "manifest.json"), "utf8")) as { stacks: Record<string, { synthesizedStackPath: string }> };
  fs.rmSync(reviewDir, { recursive: true, force: true });
  const written: string[] = [];
  for (const [stackName, stack] of Object.entries(manifest.stacks)) {
    const json = JSON.parse(fs.readFileSync(path.join(outdir, stack.synthesizedStackPath), "utf8"));
    for (const [file, content] of reviewArtifacts(stackName, json)) {
      const target = path.join(reviewDir, stackName, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, content);
      written.push(path.relative(process.cwd(), target));
    }
  }
  return written;
}
