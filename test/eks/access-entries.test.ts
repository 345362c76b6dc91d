import { clusterProblems } from "../helpers/problems";
import { config, findResource, readStack, resourcesOfType, synthApp, type TerraformJson } from "../helpers/synth-app";

const TEAM_A = "arn:aws:iam::123456789012:role/teams/team-a";
const AUDITORS = "arn:aws:iam::210987654321:role/auditors";

function clusterStack(fields: Record<string, unknown>): TerraformJson {
  return readStack(synthApp(config(fields)), "demo-cluster");
}

describe("team access", () => {
  const access = [
    { principalArn: TEAM_A, policy: "edit", namespaces: ["team-a", "team-a-*"] },
    { principalArn: TEAM_A, policy: "view" },
    { principalArn: AUDITORS, policy: "view" },
  ];
  const json = clusterStack({ access });
  // The teams' entries: the creator's own is apart (its principal is the caller's role, known at plan).
  const entries = resourcesOfType(json, "aws_eks_access_entry").filter(([id, e]) => e.type === "STANDARD" && !id.startsWith("access_creator"));
  const associations = resourcesOfType(json, "aws_eks_access_policy_association").filter(([id]) => !id.startsWith("access_creator"));
  const [creatorId] = findResource(json, "aws_eks_access_entry", (e) => String(e.principal_arn).includes("aws_iam_session_context"));

  it("gives each principal one STANDARD entry, holding every policy listed for it", () => {
    expect(entries.map(([, e]) => e.principal_arn).sort()).toEqual([TEAM_A, AUDITORS]);
    expect(
      associations.map(([, a]) => [String(a.principal_arn).replace(/\$\{aws_eks_access_entry\.(\S+)\.principal_arn\}/, "$1"), a.policy_arn, a.access_scope]),
    ).toEqual([
      [
        expect.stringMatching(/^access_access-123456789012-role-teams-team-a_/),
        "arn:aws:eks::aws:cluster-access-policy/AmazonEKSEditPolicy",
        { type: "namespace", namespaces: ["team-a", "team-a-*"] },
      ],
      [
        expect.stringMatching(/^access_access-123456789012-role-teams-team-a_/),
        "arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy",
        { type: "cluster" },
      ],
      [expect.stringMatching(/^access_access-210987654321-role-auditors_/), "arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy", { type: "cluster" }],
    ]);
  });

  it("names the resources after the principal, so reordering the list changes no address", () => {
    const reordered = clusterStack({ access: [...access].reverse() });
    const ids = (j: TerraformJson) => resourcesOfType(j, "aws_eks_access_policy_association").map(([id]) => id);
    expect(ids(reordered).sort()).toEqual(ids(json).sort());
  });

  it("records the creator's entry once: a later apply by another identity does not move cluster-admin to it", () => {
    const [, creator] = findResource(json, "aws_eks_access_entry", (e) => String(e.principal_arn).includes("aws_iam_session_context"));
    expect(creator.lifecycle).toMatchObject({ ignore_changes: ["principal_arn"] });
    const [, association] = findResource(
      json,
      "aws_eks_access_policy_association",
      (a) => a.principal_arn === `\${aws_eks_access_entry.${creatorId}.principal_arn}`,
    );
    expect(association.policy_arn).toBe("arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy");
  });

  it("refuses at plan time a principal that is the identity creating the cluster, which EKS already gives an entry", () => {
    for (const [, entry] of entries) {
      expect(entry.lifecycle).toEqual({
        precondition: [
          {
            // The creator recorded at the first apply, not whoever plans now (its entry ignores later callers).
            condition: `\${(aws_eks_access_entry.${creatorId}.principal_arn != "${entry.principal_arn}")}`,
            error_message: `access: ${entry.principal_arn} is the cluster's creator, which already has an access entry (cluster.creatorAdmin); remove it from access, or set creatorAdmin: false`,
          },
        ],
      });
    }
    // Without the creator's own entry there is nothing to collide with.
    const noCreator = clusterStack({
      access,
      cluster: { creatorAdmin: false, adminPrincipalArns: ["arn:aws:iam::123456789012:role/platform"] },
    });
    expect(resourcesOfType(noCreator, "aws_eks_access_entry").every(([, e]) => e.lifecycle === undefined)).toBe(true);
    expect(noCreator.data?.aws_iam_session_context).toBeUndefined();
  });

  it("lists the grants in the access_entries output", () => {
    const output = (json.output as Record<string, { value: unknown }>).access_entries.value as {
      principal_arn: string;
      policy_arn: string;
      namespaces: string[];
    }[];
    expect(output.map((o) => [o.policy_arn.replace(/.*\//, ""), o.namespaces])).toEqual([
      ["AmazonEKSEditPolicy", ["team-a", "team-a-*"]],
      ["AmazonEKSViewPolicy", []],
      ["AmazonEKSViewPolicy", []],
    ]);
    expect(output.map((o) => o.principal_arn)).toEqual(associations.map(([id]) => `\${aws_eks_access_policy_association.${id}.principal_arn}`));
  });
});

describe("the creator's access", () => {
  const creatorEntries = (fields: Record<string, unknown>) => {
    const json = clusterStack(fields);
    return {
      entries: resourcesOfType(json, "aws_eks_access_entry").filter(([id]) => id.startsWith("access_creator")),
      associations: resourcesOfType(json, "aws_eks_access_policy_association").filter(([id]) => id.startsWith("access_creator")),
      bootstrap: (resourcesOfType(json, "aws_eks_cluster")[0][1].access_config as Record<string, unknown>).bootstrap_cluster_creator_admin_permissions,
      lifecycle: resourcesOfType(json, "aws_eks_cluster")[0][1].lifecycle,
    };
  };

  it("is an access entry this project manages, for the caller's role, with cluster-admin: not EKS's implicit one", () => {
    const { entries, associations, bootstrap, lifecycle } = creatorEntries({});
    expect(bootstrap).toBe(false);
    expect(entries.map(([, e]) => [e.principal_arn, e.type])).toEqual([["${data.aws_iam_session_context.caller-session.issuer_arn}", "STANDARD"]]);
    expect((entries[0][1].lifecycle as { precondition: { condition: string }[] }).precondition[0].condition).toMatch(
      /^\$\{!aws_eks_cluster\.eks_cluster_\w+\.access_config\[0\]\.bootstrap_cluster_creator_admin_permissions\}$|^\$\{!aws_eks_cluster\.eks_cluster_\w+\.access_config\.bootstrap_cluster_creator_admin_permissions\}$/,
    );
    expect(associations.map(([, a]) => [a.policy_arn, a.access_scope])).toEqual([
      ["arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy", { type: "cluster" }],
    ]);
    // EKS cannot change the flag after creation: a change must not replace the cluster.
    expect(lifecycle).toEqual({ ignore_changes: ["access_config[0].bootstrap_cluster_creator_admin_permissions"] });
  });

  it("keeps EKS's implicit entry with bootstrap, for clusters created that way, and none with false", () => {
    expect(creatorEntries({ cluster: { creatorAdmin: "bootstrap" } })).toMatchObject({ entries: [], associations: [], bootstrap: true });
    expect(creatorEntries({ cluster: { creatorAdmin: false, adminPrincipalArns: ["arn:aws:iam::123456789012:role/platform"] } })).toMatchObject({
      entries: [],
      associations: [],
      bootstrap: false,
    });
  });
});

describe("team access checks", () => {
  it("refuses what EKS would refuse half way through an apply, each entry's problems at once", () => {
    expect(
      clusterProblems({
        access: [
          { principalArn: "arn:aws:sts::123456789012:assumed-role/team-a/alice", policy: "edit" },
          { principalArn: "arn:aws:iam::123456789012:user/carol", policy: "cluster-admin", namespaces: ["team-c"] },
          { principalArn: "arn:aws:iam::123456789012:user/dave", policy: "view", namespaces: ["Team_D"] },
        ],
      }),
    ).toEqual([
      'access[0].principalArn: got "arn:aws:sts::123456789012:assumed-role/team-a/alice"; is an STS session, which access entries refuse (it is temporary): use the role, arn:<partition>:iam::123456789012:role/team-a (with its path, if it has one)',
      'access[1].namespaces: got ["team-c"]; do not apply to cluster-admin, which is cluster-wide (AmazonEKSClusterAdminPolicy); use admin for a team\'s namespaces',
      `access[2].namespaces[0]: got "Team_D"; must be a namespace (lowercase letters, digits and '-', starting and ending with a letter or digit), or names matched with * (team-*)`,
    ]);
  });

  // Checks across entries and sections run once every entry is well formed (shared/schema-helpers.ts, withChecks).
  it("refuses, across entries and sections, what would collide in EKS or name another partition's principal", () => {
    expect(
      clusterProblems({
        region: "us-gov-west-1",
        cluster: { adminPrincipalArns: ["arn:aws-us-gov:iam::123456789012:role/platform"] },
        access: [
          { principalArn: "arn:aws:iam::123456789012:role/team-b", policy: "view" },
          { principalArn: "arn:aws-us-gov:iam::123456789012:role/platform", policy: "view" },
          { principalArn: "arn:aws-us-gov:iam::123456789012:user/erin", policy: "edit" },
          { principalArn: "arn:aws-us-gov:iam::123456789012:user/erin", policy: "edit", namespaces: ["x"] },
        ],
      }),
    ).toEqual([
      'access[3].policy: got "edit"; is given to this principal already (access[2]); EKS associates each policy with an entry once: merge their namespaces',
      'access[0].principalArn: got "arn:aws:iam::123456789012:role/team-b"; is in partition aws, and us-gov-west-1 is in aws-us-gov: use arn:aws-us-gov:iam::...',
      'access[1].principalArn: got "arn:aws-us-gov:iam::123456789012:role/platform"; is also in cluster.adminPrincipalArns, which already gives it an access entry (cluster-admin), and EKS allows one per principal: keep one of the two',
    ]);
  });

  it("accepts roles with paths, users, other accounts and every policy", () => {
    expect(
      clusterProblems({
        access: [
          { principalArn: "arn:aws:iam::123456789012:role/org/teams/team-a", policy: "admin", namespaces: ["team-a"] },
          { principalArn: "arn:aws:iam::210987654321:user/bob", policy: "cluster-admin" },
        ],
      }),
    ).toEqual([]);
  });
});
