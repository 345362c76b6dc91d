import * as fs from "node:fs";
import * as path from "node:path";
import { parseClusterConfig, readClusterConfigFile } from "../../src/config/load-config";
import { renderProvisioners } from "../../src/provisioners/render-provisioners";
import { CONTEXT, validateManifests } from "./helpers";

// The ESM validator (validate-manifests.mjs) checks rendered objects against the OpenAPI schemas of
// @kubernetes-models/karpenter 2.0.0, in a child process because Jest cannot load that ESM-only package.
// These tests also prove that the package works on the node version running them (it declares node >=22).

const EXAMPLE = path.join(__dirname, "../../templates/examples/multi-pool.yaml");
const documents = (yamls: readonly string[]) => yamls.join("---\n");

describe("validate-manifests.mjs", () => {
  it("accepts the golden manifests, read from files", () => {
    const golden = ["default-ec2nodeclass.yaml", "default-nodepool.yaml"].map((f) => path.join(__dirname, "golden", f));
    expect(validateManifests("", ...golden)).toEqual({ status: 0, lines: ["ok: 2 documents valid"] });
  });

  it("accepts Karpenter 1.14 values its 1.12-generated schemas lack (Balanced, Gte, Lte)", () => {
    const config = parseClusterConfig(
      {
        name: "demo",
        nodePools: [
          {
            name: "a",
            consolidationPolicy: "Balanced",
            requirements: [
              { key: "karpenter.k8s.aws/instance-cpu", operator: "Gte", values: ["4"] },
              { key: "karpenter.k8s.aws/instance-cpu", operator: "Lte", values: ["64"] },
            ],
          },
        ],
      },
      "t.yaml",
    );
    const rendered = renderProvisioners(config, CONTEXT);
    expect(validateManifests(documents([...rendered.nodeClasses, ...rendered.nodePools].map((r) => r.yaml)))).toEqual({
      status: 0,
      lines: ["ok: 2 documents valid"],
    });
  });

  it("fails, naming the document and field, on a broken manifest", () => {
    const broken = fs
      .readFileSync(path.join(__dirname, "golden/default-nodepool.yaml"), "utf8")
      .replace("consolidateAfter: 1m", "consolidateAfter: 1d")
      .replace("operator: Gt", "operator: Above");
    const notKarpenter = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n";
    expect(validateManifests(documents([broken, notKarpenter]))).toEqual({
      status: 1,
      lines: [
        "stdin#0 NodePool/default /spec/disruption/consolidateAfter: must match ^(([0-9]+(s|m|h))+|Never)$",
        "stdin#0 NodePool/default /spec/template/spec/requirements/4/operator: must be one of DoesNotExist, Exists, Gt, In, Lt, NotIn",
        "stdin#1 ConfigMap/x: unsupported apiVersion/kind v1/ConfigMap; expected karpenter.sh/v1/NodePool or karpenter.k8s.aws/v1/EC2NodeClass",
        "invalid: 3 problems in 2 documents",
      ],
    });
  });

  it("still rejects Balanced where the schema does not expect it", () => {
    const broken = fs.readFileSync(path.join(__dirname, "golden/default-nodepool.yaml"), "utf8").replace("operator: Gt", "operator: Balanced");
    expect(validateManifests(broken)).toEqual({
      status: 1,
      lines: [
        "stdin#0 NodePool/default /spec/template/spec/requirements/4/operator: must be one of DoesNotExist, Exists, Gt, In, Lt, NotIn",
        "invalid: 1 problem in 1 documents",
      ],
    });
  });
});

describe("templates/examples/multi-pool.yaml", () => {
  const config = readClusterConfigFile(EXAMPLE);
  const rendered = renderProvisioners(config, {
    clusterName: config.name,
    nodeRoleName: `${config.name}-karpenter-node`,
    windowsNodeRoleName: `${config.name}-karpenter-windows-node`,
    tags: config.tags,
  });

  it("parses into two node classes and three pools", () => {
    expect(rendered.nodeClasses.map((c) => c.object.metadata.name)).toEqual(["default", "gpu"]);
    expect(rendered.nodePools.map((p) => [p.object.metadata.name, p.nodeClassName])).toEqual([
      ["general-purpose", "default"],
      ["arm64-spot", "default"],
      ["gpu", "gpu"],
    ]);
  });

  it("renders the GPU pool with g/p instances and the nvidia.com/gpu taint", () => {
    const gpu = rendered.nodePools[2].object.spec.template.spec;
    expect(gpu.requirements).toContainEqual({ key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["g", "p"] });
    expect(gpu.taints).toEqual([{ key: "nvidia.com/gpu", value: "true", effect: "NoSchedule" }]);
    expect(rendered.nodeClasses[1].object.spec.blockDeviceMappings?.[0].ebs?.volumeSize).toBe("200Gi");
  });

  it("renders manifests the schema validator accepts", () => {
    expect(validateManifests(documents([...rendered.nodeClasses, ...rendered.nodePools].map((r) => r.yaml)))).toEqual({
      status: 0,
      lines: ["ok: 5 documents valid"],
    });
  });
});
