import { TerraformElement, TerraformStack } from "cdktf";
import type { IConstruct } from "constructs";
import { escapeHiddenOpenings, hideTemplateOpenings } from "../shared/terraform-literal";

/** This stack's Terraform elements, not those of a stack nested in it (as cdktf's own terraformElements). */
function elementsOf(stack: TerraformStack): TerraformElement[] {
  const found: TerraformElement[] = [];
  const visit = (node: IConstruct) => {
    if (TerraformElement.isTerraformElement(node)) found.push(node);
    for (const child of node.node.children) if (!TerraformStack.isStack(child)) visit(child);
  };
  visit(stack);
  return found;
}

type Render = "toTerraform" | "toHclTerraform";

/**
 * A stack whose text stays text: every `${` and `%{` a string holds outside cdktf's own tokens reaches Terraform
 * escaped, whatever wrote it (a config field, a rendered manifest, a tag), so that Terraform never evaluates a
 * value as an expression (shared/terraform-literal.ts says why it takes two steps). Expressions come from
 * cdktf's tokens only; a literal "${...}" in code is escaped like any other text.
 */
export abstract class LiteralTextStack extends TerraformStack {
  override toTerraform(): Record<string, unknown> {
    return escapeHiddenOpenings(this.withOpeningsHidden("toTerraform", () => super.toTerraform()));
  }

  override toHclTerraform(): Record<string, unknown> {
    return escapeHiddenOpenings(this.withOpeningsHidden("toHclTerraform", () => super.toHclTerraform()));
  }

  /** Runs cdktf's rendering with each element's own rendering wrapped, then puts the elements back as they were. */
  private withOpeningsHidden<T>(render: Render, work: () => T): T {
    const restore = elementsOf(this).map((element) => {
      const own = Object.getOwnPropertyDescriptor(element, render);
      const original = element[render];
      element[render] = () => hideTemplateOpenings(original.call(element));
      return () => {
        if (own === undefined) delete (element as Partial<Record<Render, unknown>>)[render];
        else Object.defineProperty(element, render, own);
      };
    });
    try {
      return work();
    } finally {
      for (const undo of restore) undo();
    }
  }
}
