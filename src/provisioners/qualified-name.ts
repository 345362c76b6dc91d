import { QUALIFIED_KEY } from "./rules/crd-patterns";

/**
 * apimachinery's IsQualifiedName limits: an optional DNS-1123 subdomain prefix of at most 253 characters and
 * '/', then a name of at most 63. Karpenter's runtime validation applies them to label, requirement and taint
 * keys and to taint values; the CRDs check only the pattern, so a part too long passes `kubectl apply` and
 * leaves the NodePool not Ready (ValidationSucceeded=False), launching nothing.
 * @see https://github.com/kubernetes/apimachinery/blob/master/pkg/util/validation/validation.go (IsQualifiedName)
 * @see https://github.com/kubernetes-sigs/karpenter/blob/main/pkg/apis/v1/nodeclaim_validation.go
 */
export const QUALIFIED_NAME_LIMITS = { prefix: 253, name: 63 } as const;

/**
 * Why a value is not a qualified name, or undefined. `shapeMessage` says what the field looks like when the
 * pattern fails; the length messages start as apimachinery's do ("name part must be no more than 63
 * characters"), so they can be searched upstream.
 */
export function qualifiedNameProblem(value: string, shapeMessage: string): string | undefined {
  if (!QUALIFIED_KEY.test(value)) return shapeMessage;
  const slash = value.indexOf("/");
  const prefix = slash === -1 ? "" : value.slice(0, slash);
  const name = value.slice(slash + 1);
  if (prefix.length > QUALIFIED_NAME_LIMITS.prefix) {
    return `prefix part must be no more than ${QUALIFIED_NAME_LIMITS.prefix} characters (it has ${prefix.length}): the DNS subdomain before '/' of a Kubernetes qualified name`;
  }
  if (name.length > QUALIFIED_NAME_LIMITS.name) {
    return `name part must be no more than ${QUALIFIED_NAME_LIMITS.name} characters (it has ${name.length}): the part after '/' of a Kubernetes qualified name`;
  }
  return undefined;
}
