import { LABEL, WELL_KNOWN_AWS_LABELS } from "../../shared/vocabulary/well-known-labels";
import { MESSAGES } from "./crd-messages";

// The label and tag keys Karpenter 1.14's CRDs keep for themselves, with the CEL rules' own messages.

const domainOf = (key: string): string => key.split("/")[0];

/**
 * The CEL message a NodePool label or requirement key breaks, or undefined. The CRD has one rule per
 * restriction; the API server would report each broken rule, but one key breaks at most one of them here, so
 * one line.
 */
export function restrictedLabelMessage(key: string): string | undefined {
  if (key === LABEL.nodePool) return `label "${LABEL.nodePool}" is restricted`;
  if (key === LABEL.hostname) return `label "${LABEL.hostname}" is restricted`;
  if (domainOf(key).endsWith("karpenter.sh") && key !== LABEL.capacityType) return 'label domain "karpenter.sh" is restricted';
  if (domainOf(key).endsWith("karpenter.k8s.aws") && !WELL_KNOWN_AWS_LABELS.includes(key)) return 'label domain "karpenter.k8s.aws" is restricted';
  return undefined;
}

/** EC2NodeClass tags Karpenter sets itself, on which its IAM policy's conditions rely. */
export function restrictedTagMessage(key: string): string | undefined {
  if (key === "") return MESSAGES.emptyTagKey;
  if (key === "eks:eks-cluster-name") return "tag contains a restricted tag matching eks:eks-cluster-name";
  if (key.startsWith("kubernetes.io/cluster")) return "tag contains a restricted tag matching kubernetes.io/cluster/";
  for (const exact of [LABEL.nodePool, "karpenter.sh/nodeclaim", LABEL.nodeClass]) {
    if (key === exact) return `tag contains a restricted tag matching ${exact}`;
  }
  return undefined;
}
