import { stringify } from "yaml";

/**
 * THE serializer for Kubernetes manifests: block style, keys in the order the object was built, no
 * anchors or aliases (a shared list would otherwise print as `*a1`), and no folding of long strings
 * (user data and selectors stay on one line or in a literal block). Same object, same bytes.
 *
 * Written with the YAML 1.1 schema so that strings such as "yes", "on" or "2025-01-01" are quoted: Go's
 * YAML libraries behind kubectl read those as booleans or timestamps when plain. The output is valid 1.2.
 */
export function toManifestYaml(object: object): string {
  return stringify(object, {
    aliasDuplicateObjects: false,
    lineWidth: 0,
    minContentWidth: 0,
    indentSeq: true,
    version: "1.1",
  });
}
