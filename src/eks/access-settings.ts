import { z } from "zod";
import { iamPrincipalArn } from "../iam/principal-arn";
import { repeatedIndexes, strictObject, withChecks } from "../shared/schema-helpers";

// The `access` section of the cluster config: IAM roles and users given Kubernetes permissions through EKS
// access entries and AWS's managed access policies, cluster-wide or in some namespaces.
// @see https://docs.aws.amazon.com/eks/latest/userguide/access-policies.html
// @see https://docs.aws.amazon.com/eks/latest/userguide/access-policy-permissions.html

/** The config's names for the AWS-managed access policies. */
export const ACCESS_POLICIES = {
  "cluster-admin": "AmazonEKSClusterAdminPolicy",
  admin: "AmazonEKSAdminPolicy",
  edit: "AmazonEKSEditPolicy",
  view: "AmazonEKSViewPolicy",
} as const;

export type AccessPolicy = keyof typeof ACCESS_POLICIES;

/** What an access entry takes: an IAM role or user, never a session. */
export const ACCESS_ENTRY_PRINCIPAL = { sessionRefused: "access entries refuse (it is temporary)" } as const;

/** A namespace, or names matched with `*`: EKS takes wildcards in an access scope's namespaces. */
const namespace = z
  .string()
  .max(63, { error: "must be at most 63 characters (a Kubernetes namespace)" })
  .regex(/^[a-z0-9*]([-a-z0-9*]*[a-z0-9*])?$/, {
    error: "must be a namespace (lowercase letters, digits and '-', starting and ending with a letter or digit), or names matched with * (team-*)",
  });

const grant = withChecks(
  strictObject({
    principalArn: iamPrincipalArn({ ...ACCESS_ENTRY_PRINCIPAL, example: "team-a" }).meta({
      description:
        "The IAM role or user, of this account or another. A principal listed with several policies gets one entry holding them all (`view` cluster-wide and `edit` in its team's namespaces, say).",
    }),
    policy: z.enum(Object.keys(ACCESS_POLICIES) as [AccessPolicy, ...AccessPolicy[]]).meta({
      description:
        "`cluster-admin` (AmazonEKSClusterAdminPolicy, cluster-wide only), `admin` (AmazonEKSAdminPolicy: most permissions, no cluster-scoped objects when namespaced), `edit` (AmazonEKSEditPolicy) or `view` (AmazonEKSViewPolicy, no Secrets).",
    }),
    namespaces: z
      .array(namespace)
      .min(1, { error: "must list at least one namespace (omit namespaces for cluster-wide access)" })
      .optional()
      .meta({ defaultText: "cluster-wide", description: "The namespaces the policy applies in; `*` matches any characters (`team-a-*`)." }),
  }),
  [
    {
      reads: ["policy", "namespaces"],
      check: ({ policy, namespaces }, report) => {
        if (policy === "cluster-admin" && namespaces !== undefined) {
          report(
            ["namespaces"],
            namespaces,
            "do not apply to cluster-admin, which is cluster-wide (AmazonEKSClusterAdminPolicy); use admin for a team's namespaces",
          );
        }
      },
    },
  ],
);

export const accessSchema = withChecks(z.array(grant), [
  {
    reads: ["*.principalArn", "*.policy"],
    check: (grants, report) => {
      // One entry per principal may hold several policies, each once (one scope each).
      const key = (g: AccessGrant) => `${g.principalArn} ${g.policy}`;
      for (const i of repeatedIndexes(grants, key)) {
        const first = grants.findIndex((g) => key(g) === key(grants[i]));
        report(
          [i, "policy"],
          grants[i].policy,
          `is given to this principal already (access[${first}]); EKS associates each policy with an entry once: merge their namespaces`,
        );
      }
    },
  },
])
  .default([])
  .meta({
    title: "team access",
    description: `IAM roles and users given Kubernetes permissions through EKS access entries and AWS's managed access policies, cluster-wide or in some namespaces. No aws-auth ConfigMap: the cluster's authentication mode is API. A principal has one entry, so it may not also be one of \`cluster.adminPrincipalArns\`, nor the identity that creates the cluster (checked when Terraform plans). The cluster stack's output \`access_entries\` lists them. See docs/security.md, Team access.

\`\`\`yaml
access:
  - principalArn: arn:aws:iam::123456789012:role/team-a-developers
    policy: edit
    namespaces: [team-a, team-a-*]
  - principalArn: arn:aws:iam::123456789012:role/auditors
    policy: view
\`\`\``,
  });

export type AccessGrant = z.output<typeof grant>;
