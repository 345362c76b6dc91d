import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { projectRoot } from "../shared/project-root";

/** A deployment package for the CoreDNS fix function. */
export interface LambdaBundle {
  /** A zip file on this machine; TerraformAsset copies it into the stack folder. */
  readonly zipPath: string;
  /** base64 SHA-256 of the zip: Lambda's source_code_hash. */
  readonly sha256: string;
}

/** Zip timestamps are fixed so that the same source gives the same bytes on any machine and any day. */
const ZIP_MTIME = new Date("2000-01-01T00:00:00Z");

/**
 * Bundles src/lambda-coredns/runtime with esbuild for nodejs22.x into a zip, deterministically: the same
 * source and lock file give the same bytes. The zip is cached under node_modules/.cache by a hash of those
 * inputs, so only the first synth after a change pays for esbuild (about 250 ms). `cacheDir` is for tests
 * that must rebuild without pulling the zip from under a parallel synth.
 */
export function bundleCoreDnsFix(cacheDir = path.join(projectRoot(), "node_modules", ".cache", "autonomous-eks")): LambdaBundle {
  const root = projectRoot();
  const runtimeDir = path.join(root, "src", "lambda-coredns", "runtime");
  const inputs = createHash("sha256");
  for (const file of fs
    .readdirSync(runtimeDir)
    .filter((f) => f.endsWith(".ts"))
    .sort()) {
    inputs.update(file).update(fs.readFileSync(path.join(runtimeDir, file)));
  }
  // The lock file pins esbuild and the bundled AWS SDK packages.
  inputs.update(fs.readFileSync(path.join(root, "package-lock.json")));
  // The file name is what Terraform sees (assets/<id>/<hash>/coredns-fix.zip); the cache key is the folder.
  const zipDir = path.join(cacheDir, `coredns-fix-${inputs.digest("hex").slice(0, 16)}`);
  const zipPath = path.join(zipDir, "coredns-fix.zip");

  if (!fs.existsSync(zipPath)) {
    // Loaded here, not at the top: synths that hit the cache never load esbuild.
    const esbuild: typeof import("esbuild") = require("esbuild");
    const { zipSync }: typeof import("fflate") = require("fflate");
    const built = esbuild.buildSync({
      entryPoints: [path.join(runtimeDir, "handler.ts")],
      absWorkingDir: root,
      bundle: true,
      platform: "node",
      target: "node22",
      format: "cjs",
      minify: true,
      legalComments: "none",
      write: false,
      logLevel: "warning",
    });
    const zip = zipSync({ "index.js": [built.outputFiles[0].contents, { mtime: ZIP_MTIME }] }, { level: 9 });
    fs.mkdirSync(zipDir, { recursive: true });
    // Write then rename: a parallel synth never reads a half-written zip.
    const partial = `${zipPath}.${process.pid}.tmp`;
    fs.writeFileSync(partial, zip);
    fs.renameSync(partial, zipPath);
  }
  return { zipPath, sha256: createHash("sha256").update(fs.readFileSync(zipPath)).digest("base64") };
}
