import { stringify } from "yaml";

/** A Kubernetes object with a name, as applied here. */
export interface KubernetesObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string };
}

/** An object and its YAML, serialized once: the stack applies these bytes and the review shows them. */
export interface RenderedManifest<T extends KubernetesObject = KubernetesObject> {
  readonly object: T;
  readonly yaml: string;
}

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

export function renderManifest<T extends KubernetesObject>(object: T): RenderedManifest<T> {
  return { object, yaml: toManifestYaml(object) };
}
