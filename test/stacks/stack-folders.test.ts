import * as fs from "node:fs";
import * as path from "node:path";
import { readClusterConfigFile } from "../../src/config/load-config";
import { config, readStack, resourcesOfType, synthApp } from "../helpers/synth-app";
import { validateManifests } from "../provisioners/helpers";

const EXAMPLE = path.join(__dirname, "../../templates/examples/multi-pool.yaml");

describe.each([
  ["the default cluster", () => config()],
  ["the multi-pool example", () => readClusterConfigFile(EXAMPLE)],
  ["the multiarch talk's cluster", () => readClusterConfigFile(path.join(__dirname, "../../clusters/multiarch.yaml"))],
])("stack folders of %s", (_, makeConfig) => {
  const clusterConfig = makeConfig();
  const outdir = synthApp(clusterConfig);
  const stacks = [`${clusterConfig.name}-cluster`, `${clusterConfig.name}-karpenter`];

  it.each(stacks)("%s pins every provider to an exact version", (stack) => {
    const providers = readStack(outdir, stack).terraform!.required_providers as Record<string, { version: string }>;
    for (const [name, p] of Object.entries(providers)) expect([name, p.version]).toEqual([name, expect.stringMatching(/^\d+\.\d+\.\d+$/)]);
  });

  it.each(stacks)("%s reads nothing from another stack's state and nothing outside its folder", (stack) => {
    const json = readStack(outdir, stack);
    expect(json.data?.terraform_remote_state).toBeUndefined();
    const stackDir = path.join(outdir, "stacks", stack);
    for (const [, fn] of resourcesOfType(json, "aws_lambda_function")) {
      const file = path.resolve(stackDir, String(fn.filename));
      expect(file.startsWith(stackDir + path.sep) && fs.existsSync(file)).toBe(true);
    }
    // No file() or templatefile() reads at plan time: they would resolve against the runner's folder.
    expect(JSON.stringify(json)).not.toMatch(/\$\{(file|templatefile|filebase64)\(/);
  });

  it("renders every NodePool and EC2NodeClass in cdktf.out valid against the Karpenter schemas", () => {
    const bodies = resourcesOfType(readStack(outdir, stacks[1]), "kubectl_manifest")
      .map(([, m]) => String(m.yaml_body))
      .filter((body) => /^kind: (NodePool|EC2NodeClass)$/m.test(body));
    expect(bodies.length).toBe(clusterConfig.nodePools.length + clusterConfig.nodeClasses.length);
    expect(validateManifests(bodies.join("---\n"))).toEqual({ status: 0, lines: [`ok: ${bodies.length} documents valid`] });
  });
});
