import { ALIAS_FAMILIES, WINDOWS_ALIAS_FAMILIES } from "../shared/vocabulary/ami-families";
import type { AmiSelectorTerm } from "./karpenter-api";
import { DEFAULT_AMI_ALIAS } from "./provisioner-defaults";
import { ALIAS_MAX_LENGTH } from "./rules/crd-limits";
import { MESSAGES } from "./rules/crd-messages";

/** How a node class picks its AMIs, as the config writes it. */
export interface AmiSelection {
  readonly amiAlias?: string;
  readonly amiSelectorTerms?: readonly AmiSelectorTerm[];
  readonly amiFamily?: string;
}

/** The terms the EC2NodeClass carries: the explicit list, or the alias shorthand (or its default). */
export function effectiveAmiSelectorTerms(selection: AmiSelection): readonly AmiSelectorTerm[] {
  return selection.amiSelectorTerms ?? [{ alias: selection.amiAlias ?? DEFAULT_AMI_ALIAS }];
}

/** "al2023" from "al2023@latest". */
export function aliasFamily(alias: string): string {
  return alias.split("@")[0];
}

/** The EKS-optimized AMI family of a class's alias ("al2023"), or undefined when its AMIs are selected otherwise. */
export function eksAmiFamily(selection: AmiSelection): string | undefined {
  const alias = effectiveAmiSelectorTerms(selection).find((t) => t.alias !== undefined)?.alias;
  return alias === undefined ? undefined : aliasFamily(alias);
}

/** The alias family ("al2023"), or the amiFamily in lowercase: what decides the disk layout and the OS. */
export function osFamily(selection: { readonly amiSelectorTerms: readonly AmiSelectorTerm[]; readonly amiFamily?: string }): string {
  const alias = selection.amiSelectorTerms.find((t) => t.alias !== undefined)?.alias;
  return alias !== undefined ? aliasFamily(alias) : (selection.amiFamily ?? "al2023").toLowerCase();
}

/** Windows nodes are scheduled with `kubernetes.io/os: windows`, and EKS runs them on amd64 only. */
export function isWindows(selection: { readonly amiSelectorTerms: readonly AmiSelectorTerm[]; readonly amiFamily?: string }): boolean {
  return osFamily(selection).startsWith("windows");
}

/** Whether a node class of the config launches Windows nodes. */
export function isWindowsNodeClass(nodeClass: AmiSelection): boolean {
  return isWindows({ amiSelectorTerms: effectiveAmiSelectorTerms(nodeClass), amiFamily: nodeClass.amiFamily });
}

/** The CEL rules of an alias, as one message: the first rule it breaks. */
export function aliasProblem(alias: string): string | undefined {
  if (alias.length > ALIAS_MAX_LENGTH) return `must be at most ${ALIAS_MAX_LENGTH} characters`;
  if (!/^[a-zA-Z0-9]+@.+$/.test(alias)) return MESSAGES.aliasFormat;
  const [family, version] = alias.split("@");
  if (!(ALIAS_FAMILIES as readonly string[]).includes(family)) return MESSAGES.aliasFamily;
  if (WINDOWS_ALIAS_FAMILIES.includes(family) && version !== "latest") return MESSAGES.aliasWindowsLatest;
  const form = ALIAS_VERSION_FORMS[family];
  if (form !== undefined && version !== "latest" && !form.pattern.test(version)) {
    return `has version "${version}"; ${family} takes "latest" or ${form.example}: Karpenter builds the SSM parameter of the AMI from it, and any other form finds no AMI, so the node class would never become Ready`;
  }
  return undefined;
}

/**
 * The versions EKS publishes AMIs under, as Karpenter reads them into SSM parameter names: the amazon-eks-ami
 * release tag (`v20251106`) for Amazon Linux, the Bottlerocket release with or without its `v`.
 * @see https://karpenter.sh/docs/concepts/nodeclasses/#specamiselectorterms
 * @see https://github.com/aws/karpenter-provider-aws/blob/main/pkg/providers/amifamily/al2023.go (resolvePath)
 * @see https://github.com/aws/karpenter-provider-aws/blob/main/pkg/providers/amifamily/bottlerocket.go (DescribeImageQuery)
 */
const ALIAS_VERSION_FORMS: Readonly<Record<string, { readonly pattern: RegExp; readonly example: string }>> = {
  al2: { pattern: /^v\d{8}$/, example: "an amazon-eks-ami release such as v20251106" },
  al2023: { pattern: /^v\d{8}$/, example: "an amazon-eks-ami release such as v20251106" },
  bottlerocket: { pattern: /^v?\d+\.\d+\.\d+$/, example: "a Bottlerocket release such as v1.50.0" },
};

/**
 * EKS published its last Amazon Linux 2 AMIs for Kubernetes 1.32, and none after 2025-11-26: an `al2` alias
 * resolves through EKS's SSM parameters, so for 1.33 and later it finds no AMI and the node class never
 * becomes Ready; for earlier versions it finds AMIs that no longer get security updates.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/eks-ami-build-scripts.html
 */
export const LAST_AL2_KUBERNETES_VERSION = "1.32";
export const AL2_END_OF_SUPPORT = "2025-11-26";

/** The al2 aliases of a node class, with where each is written (amiAlias, or amiSelectorTerms[j].alias). */
export function al2Aliases(selection: AmiSelection): { readonly alias: string; readonly path: readonly (string | number)[] }[] {
  if (selection.amiSelectorTerms === undefined) {
    return selection.amiAlias !== undefined && aliasFamily(selection.amiAlias) === "al2" ? [{ alias: selection.amiAlias, path: ["amiAlias"] }] : [];
  }
  return selection.amiSelectorTerms.flatMap((term, j) =>
    term.alias !== undefined && aliasFamily(term.alias) === "al2" ? [{ alias: term.alias, path: ["amiSelectorTerms", j, "alias"] }] : [],
  );
}
