import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { SsmParameter } from "@cdktf/provider-aws/lib/ssm-parameter";
import { App, Testing } from "cdktf";
import { escapeHiddenOpenings, hideTemplateOpenings } from "../../src/shared/terraform-literal";
import { LiteralTextStack } from "../../src/stacks/literal-text-stack";

class Stack extends LiteralTextStack {}

describe("text that reaches Terraform stays text", () => {
  it("escapes ${ and %{ of literal text, and leaves cdktf's own expressions alone", () => {
    const stack = new Stack(new App({ outdir: "unused" }), "s");
    new AwsProvider(stack, "aws", { region: "us-east-1" });
    const parameter = new SsmParameter(stack, "p", { name: "p", type: "String", value: "x" });
    const values = ['echo "${HOSTNAME}"', "%{ if x }y%{ endif }", "$${already}", `${parameter.arn} \${HOSTNAME}`, "a}b{c$"];
    values.forEach((value, i) => {
      new SsmParameter(stack, `v${i}`, { name: `v${i}`, type: "String", value, tags: { [`k\${${i}}`]: value } });
    });
    const resources = JSON.parse(Testing.synth(stack)).resource.aws_ssm_parameter as Record<string, { value: string; tags: Record<string, string> }>;
    // What Terraform reads back as the text written: $${ is ${, %%{ is %{, $$${ is $${.
    expect(values.map((_, i) => resources[`v${i}`].value)).toEqual([
      'echo "$${HOSTNAME}"',
      "%%{ if x }y%%{ endif }",
      "$$${already}",
      "${aws_ssm_parameter.p.arn} $${HOSTNAME}",
      "a}b{c$",
    ]);
    expect(Object.keys(resources.v0.tags)).toEqual(["k$${0}"]);
  });

  it("hides the openings of literal text only, and gives them back as Terraform's escapes", () => {
    const token = "${TfToken[TOKEN.12]}";
    const hidden = hideTemplateOpenings({ a: [`x ${token} \${y} %{z}`], "${k}": 1 });
    expect(JSON.stringify(hidden)).not.toMatch(/\$\{(?!TfToken)|%\{/);
    expect(JSON.stringify(hidden)).toContain(token);
    expect(escapeHiddenOpenings(hidden)).toEqual({ a: [`x ${token} $\${y} %%{z}`], "$${k}": 1 });
  });
});
