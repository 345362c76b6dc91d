import type { IEC2NodeClass } from "@kubernetes-models/karpenter/karpenter.k8s.aws/v1/EC2NodeClass";
import type { INodePool } from "@kubernetes-models/karpenter/karpenter.sh/v1/NodePool";
import { parseClusterConfig } from "../../src/config/load-config";
import type { EC2NodeClass, NodePool } from "../../src/provisioners/karpenter-api";
import { renderProvisioners } from "../../src/provisioners/render-provisioners";
import { CONTEXT } from "./helpers";

// Compile-time checks (`tsc --noEmit` runs over the tests): our hand-written Karpenter 1.14 interfaces must
// fit the types generated from Karpenter 1.12 by @kubernetes-models/karpenter, apart from the values 1.14
// added. A renamed or mistyped field here fails the type check, not a cluster apply.

/** Mutable arrays (as the package declares them), without the enum values Karpenter 1.12 did not have. */
type As112<T> = T extends string
  ? Exclude<T, "Balanced" | "Gte" | "Lte">
  : T extends readonly (infer U)[]
    ? As112<U>[]
    : T extends object
      ? { -readonly [K in keyof T]: As112<T[K]> }
      : T;

function asModel(nodeClass: EC2NodeClass, pool: NodePool): [IEC2NodeClass, INodePool] {
  return [nodeClass as As112<EC2NodeClass>, pool as As112<NodePool>];
}

it("renders objects whose types fit the @kubernetes-models/karpenter interfaces", () => {
  const rendered = renderProvisioners(parseClusterConfig({ name: "demo" }, "t.yaml"), CONTEXT);
  const [nodeClass, pool] = asModel(rendered.nodeClasses[0].object, rendered.nodePools[0].object);
  expect(nodeClass.apiVersion).toBe("karpenter.k8s.aws/v1");
  expect(pool.spec?.template.spec.nodeClassRef.name).toBe(nodeClass.metadata?.name);
});
