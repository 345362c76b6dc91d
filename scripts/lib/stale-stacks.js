// After a synth, the folders of stacks that no longer exist (a cluster renamed or removed from a fleet) are
// removed, as the cdktf CLI does: a pipeline applying every folder of cdktf.out/stacks must not apply them.

const fs = require("node:fs");
const path = require("node:path");

/** Removes cdktf.out/stacks/<name> for every name the manifest no longer lists; returns the names removed. */
function removeStaleStacks(outdir) {
  const stacksDir = path.join(outdir, "stacks");
  const manifest = JSON.parse(fs.readFileSync(path.join(outdir, "manifest.json"), "utf8"));
  const stale = fs.existsSync(stacksDir) ? fs.readdirSync(stacksDir).filter((name) => !(name in manifest.stacks)) : [];
  for (const name of stale) fs.rmSync(path.join(stacksDir, name), { recursive: true, force: true });
  return stale;
}

module.exports = { removeStaleStacks };
