import { clusterProblems } from "../helpers/problems";

// Every count limit of EKS and the Karpenter CRDs, at its edge: the last value allowed passes, the first one
// beyond it is refused with the limit's own message. Written out by hand from the documented limits, so a
// limit moved by one in the code fails here.

const many = <T>(n: number, item: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => item(i));
const namespaces = (n: number) => many(n, (i) => `team-${i}`);
const pool = (fields: Record<string, unknown>) => ({ nodePools: [{ name: "default", ...fields }] });
const nodeClass = (fields: Record<string, unknown>) => ({ nodeClasses: [{ name: "default", ...fields }] });
const tags = (n: number) => Object.fromEntries(many(n, (i) => [`k${i}`, "v"]));

interface Edge {
  readonly limit: string;
  /** The config at the limit (accepted) and one past it (refused). */
  readonly at: Record<string, unknown>;
  readonly past: Record<string, unknown>;
  readonly problem: string;
}

const EDGES: readonly Edge[] = [
  {
    // EKS: 5 selectors per Fargate profile; each namespace here is one selector.
    limit: "Fargate selectors per profile (EKS: 5)",
    at: { fargate: { profiles: [{ name: "apps", namespaces: namespaces(5) }] } },
    past: { fargate: { profiles: [{ name: "apps", namespaces: namespaces(6) }] } },
    problem:
      'fargate.profiles[0].namespaces: got ["team-0","team-1","team-2","team-3","team-4","team-5"]; may list at most 5 namespaces (EKS allows 5 selectors per profile)',
  },
  {
    limit: "Karpenter controller replicas (1 to 3)",
    at: { karpenter: { replicas: 3 } },
    past: { karpenter: { replicas: 4 } },
    problem: "karpenter.replicas: got 4; must be at most 3",
  },
  {
    limit: "NodePool weight (CRD: 1 to 100)",
    at: pool({ weight: 100 }),
    past: pool({ weight: 101 }),
    problem: "nodePools[0].weight: got 101; must be between 1 and 100",
  },
  {
    limit: "budgets per NodePool (CRD: 50)",
    at: pool({ budgets: many(50, () => ({ nodes: "10%" })) }),
    past: pool({ budgets: many(51, () => ({ nodes: "10%" })) }),
    problem: 'nodePools[0].budgets: got [{"nodes":"10%"},{"nodes":"10%"},{"nodes":"10%"},{"nodes"...; must list at most 50 budgets',
  },
  {
    limit: "labels per NodePool (CRD: 100)",
    at: pool({ labels: tags(100) }),
    past: pool({ labels: tags(101) }),
    problem: 'nodePools[0].labels: got {"k0":"v","k1":"v","k2":"v","k3":"v","k4":"v","k5":"v","k...; must hold at most 100 labels',
  },
  {
    limit: "minValues (CRD: 1 to 50)",
    at: pool({ requirements: [{ key: "karpenter.k8s.aws/instance-family", operator: "Exists", minValues: 50 }] }),
    past: pool({ requirements: [{ key: "karpenter.k8s.aws/instance-family", operator: "Exists", minValues: 51 }] }),
    problem: "nodePools[0].requirements[0].minValues: got 51; must be between 1 and 50",
  },
  {
    limit: "AMI selector terms per EC2NodeClass (CRD: 30)",
    at: nodeClass({ amiFamily: "AL2023", amiSelectorTerms: many(30, (i) => ({ name: `ami-${i}` })) }),
    past: nodeClass({ amiFamily: "AL2023", amiSelectorTerms: many(31, (i) => ({ name: `ami-${i}` })) }),
    problem: 'nodeClasses[0].amiSelectorTerms: got [{"name":"ami-0"},{"name":"ami-1"},{"name":"ami-2"},{"nam...; must list at most 30 terms',
  },
  {
    limit: "tags per AMI selector term (CRD: 20)",
    at: nodeClass({ amiFamily: "AL2023", amiSelectorTerms: [{ tags: tags(20) }] }),
    past: nodeClass({ amiFamily: "AL2023", amiSelectorTerms: [{ tags: tags(21) }] }),
    problem: 'nodeClasses[0].amiSelectorTerms[0].tags: got {"k0":"v","k1":"v","k2":"v","k3":"v","k4":"v","k5":"v","k...; must hold at most 20 tags',
  },
  {
    limit: "metadata hop limit (EC2: 1 to 64)",
    at: nodeClass({ metadataOptions: { httpPutResponseHopLimit: 64 } }),
    past: nodeClass({ metadataOptions: { httpPutResponseHopLimit: 65 } }),
    problem: "nodeClasses[0].metadataOptions.httpPutResponseHopLimit: got 65; must be between 1 and 64",
  },
];

describe("limits at their edges", () => {
  it.each(EDGES)("$limit: the last value allowed passes", ({ at }) => {
    expect(clusterProblems(at)).toEqual([]);
  });

  it.each(EDGES)("$limit: one past it is refused", ({ past, problem }) => {
    expect(clusterProblems(past)).toEqual([problem]);
  });
});

describe("karpenter's batch window", () => {
  it("takes Go durations from 1ms to 10m, and says what is allowed otherwise", () => {
    expect(clusterProblems({ karpenter: { batchIdleDuration: "1ms", batchMaxDuration: "10m" } })).toEqual([]);
    expect(clusterProblems({ karpenter: { batchIdleDuration: "soon", batchMaxDuration: "11m" } })).toEqual([
      'karpenter.batchIdleDuration: got "soon"; must be a Go duration from 1ms to 10m, such as "1s", "500ms" or "10s"',
      'karpenter.batchMaxDuration: got "11m"; must be a Go duration from 1ms to 10m, such as "1s", "500ms" or "10s"',
    ]);
  });
});
