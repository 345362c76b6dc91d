/**
 * Whether a name EKS matches with wildcards does: `*` (any run of characters, none included) and `?` (exactly
 * one), anywhere, and no other pattern syntax. Fargate profile selectors (namespaces, label keys and values)
 * and access policy scopes (namespaces) take them.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/fargate-profile.html#fargate-profile-wildcards
 */
export function wildcardMatches(pattern: string, value: string): boolean {
  if (!pattern.includes("*") && !pattern.includes("?")) return pattern === value;
  const source = [...pattern].map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\/-]/g, "\\$&"))).join("");
  return new RegExp(`^${source}$`, "s").test(value);
}
