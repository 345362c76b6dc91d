import * as path from "node:path";
import { readWorkload } from "../../../src/planner/workload/read-workload";
import { problemsOf } from "../../helpers/problems";
import { FIXTURES, workloadFile } from "../helpers";

// Objects as `kubectl apply` and the API server give them: typed lists whose items leave out their kind,
// documents of kinds the planner skips however deeply nested, built-in kinds that run no pods (no word),
// and kinds that create pods the planner does not read (named, since their pods are missing from the plan).

/** A mapping nested `depth` levels under `data`, deeper than js-yaml parses (100). */
const nested = (depth: number) =>
  `${Array.from({ length: depth }, (_, i) => `${"  ".repeat(i + 1)}level${i}:`).join("\n")}\n${"  ".repeat(depth + 1)}leaf: 1\n`;

describe("kinds and lists", () => {
  it("reads the items of a typed list as the list's kind names them, as kubectl reads the API server's lists", () => {
    const file = workloadFile(`apiVersion: v1
kind: PodList
items:
  - metadata: { name: debug, namespace: ops }
    spec: { containers: [{ name: sh, resources: { requests: { cpu: 100m } } }] }
---
apiVersion: apps/v1
kind: DeploymentList
items:
  - metadata: { name: web }
    spec: { replicas: 3, template: { spec: { containers: [{ name: w, resources: { requests: { cpu: 250m } } }] } } }
`);
    expect(readWorkload(file).groups.map((g) => [g.id, g.kind, g.replicas, g.pod.cpuMillis])).toEqual([
      ["ops/debug", "Pod", 1, 100],
      ["default/web", "Deployment", 3, 250],
    ]);
  });

  it("skips a document of a kind it does not read however deep it is nested, and still refuses a deep Deployment", () => {
    const deepConfigMap = `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: dashboards }\ndata:\n${nested(110)}---\n`;
    const web = "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web }\nspec: { template: { spec: { containers: [{ name: w }] } } }\n---\n";
    const skipped = workloadFile(deepConfigMap + web);
    expect(readWorkload(skipped).groups.map((g) => g.id)).toEqual(["default/web"]);
    expect(readWorkload(skipped).warnings[0]).toBe(
      `${skipped}: line 1: a ConfigMap nested deeper than the parser reads (nesting exceeded maxDepth (100)); the planner does not read that kind, so it was skipped`,
    );
    const deepDeployment = workloadFile(`apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: deep }\nspec:\n${nested(110)}`);
    expect(problemsOf(() => readWorkload(deepDeployment))).toEqual([
      expect.stringMatching(/^.*workload\.yaml: line \d+, column \d+: nesting exceeded maxDepth \(100\)$/),
    ]);
  });

  it("ingress-nginx's built-in kinds that run no pods (IngressClass, the admission webhook's configuration, RBAC) are not reported as unknown", () => {
    const workload = readWorkload(path.join(FIXTURES, "real-workloads", "ingress-nginx-aws.yaml"));
    expect(workload.warnings.filter((w) => w.startsWith("kinds the planner does not know"))).toEqual([]);
    expect(workload.groups.map((g) => `${g.kind} ${g.id}`)).toEqual([
      "Deployment ingress-nginx/ingress-nginx-controller",
      "Job ingress-nginx/ingress-nginx-admission-create",
      "Job ingress-nginx/ingress-nginx-admission-patch",
    ]);
  });

  it("names the objects of kinds that create pods, an Argo Rollout's, apart from the kinds it does not know", () => {
    const file = workloadFile(`apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: { name: checkout, namespace: shop }
spec:
  replicas: 5
  template: { spec: { containers: [{ name: c, resources: { requests: { cpu: 500m } } }] } }
  strategy: { canary: { steps: [{ setWeight: 20 }] } }
---
apiVersion: example.com/v1
kind: Widget
metadata: { name: w }
spec: { size: 3 }
`);
    expect(readWorkload(file).warnings).toEqual([
      "kinds the planner does not know were skipped: Widget",
      "objects of kinds that create pods, which the planner does not read, were skipped; their pods are not in the plan: Rollout shop/checkout (argoproj.io/v1alpha1)",
    ]);
  });
});
