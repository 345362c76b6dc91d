import { readWorkload } from "../../../src/planner/workload/read-workload";
import { workloadFile } from "../helpers";

// What a pod spec says beyond its requests and placement, as the API server stores it: the ports it binds on
// the node (with hostNetwork, each container port, which the API server copies into hostPort), whether a
// container runs privileged, and the node it names.

describe("a pod spec's host ports, privileges and node", () => {
  it("reads hostPort (TCP and every address unless written), and with hostNetwork every container port", () => {
    const workload = readWorkload(
      workloadFile(`apiVersion: apps/v1
kind: DaemonSet
metadata: { name: node-local-dns, namespace: kube-system }
spec:
  template:
    spec:
      hostNetwork: true
      containers:
        - name: node-cache
          securityContext: { privileged: true }
          ports: [{ containerPort: 53, protocol: UDP }, { containerPort: 53, protocol: TCP }, { containerPort: 9253, hostIP: 169.254.20.10 }]
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: ingress }
spec:
  template:
    spec:
      initContainers: [{ name: wait, ports: [{ containerPort: 9000, hostPort: 9000 }] }]
      containers: [{ name: nginx, ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 443 }] }]
`),
    );
    expect(workload.daemonSets[0].pod).toMatchObject({
      hostNetwork: true,
      privileged: true,
      hostPorts: [
        { port: 53, protocol: "UDP", ip: "0.0.0.0" },
        { port: 53, protocol: "TCP", ip: "0.0.0.0" },
        { port: 9253, protocol: "TCP", ip: "169.254.20.10" },
      ],
    });
    // Karpenter counts the app containers' ports only (GetHostPorts reads spec.containers).
    expect(workload.groups[0].pod.hostPorts).toEqual([{ port: 8080, protocol: "TCP", ip: "0.0.0.0" }]);
    expect(workload.groups[0].pod.privileged).toBeUndefined();
  });

  it("reads spec.nodeName: the pods are bound to that node", () => {
    const workload = readWorkload(
      workloadFile("apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec: { nodeName: ip-10-0-1-1, containers: [{ name: c }] }\n"),
    );
    expect(workload.groups[0].boundTo).toBe("ip-10-0-1-1");
  });
});
