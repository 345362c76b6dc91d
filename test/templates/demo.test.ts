import * as fs from "node:fs";
import * as path from "node:path";
import { parseAllDocuments } from "yaml";

const DEMO = path.join(__dirname, "../../templates/demo");
const documents = (file: string) => parseAllDocuments(fs.readFileSync(path.join(DEMO, file), "utf8")).map((d) => d.toJS());

describe("demo workloads", () => {
  it("chip: namespace, deployment with real requests, service and an autoscaling/v2 HPA", () => {
    const docs = documents("chip.yaml");
    expect(docs.map((d) => `${d.apiVersion} ${d.kind}`)).toEqual([
      "v1 Namespace",
      "apps/v1 Deployment",
      "v1 Service",
      "autoscaling/v2 HorizontalPodAutoscaler",
    ]);
    const container = docs[1].spec.template.spec.containers[0];
    expect(container.resources.requests).toEqual({ cpu: "250m", memory: "512Mi" });
    expect(docs[3].spec).toMatchObject({ minReplicas: 2, maxReplicas: 100, scaleTargetRef: { kind: "Deployment", name: "chip" } });
    // Every selector matches the pod labels.
    const podLabels = docs[1].spec.template.metadata.labels;
    expect(podLabels).toMatchObject(docs[1].spec.selector.matchLabels);
    expect(podLabels).toMatchObject(docs[2].spec.selector);
  });

  it("inflate: pause pods that request whole CPUs and start at zero", () => {
    const [deployment] = documents("inflate.yaml");
    expect(deployment.spec.replicas).toBe(0);
    expect(deployment.spec.template.spec.containers[0].resources.requests).toEqual({ cpu: "1", memory: "1.5Gi" });
  });
});
