import * as fs from "node:fs";
import * as path from "node:path";
import {
  CONFIGURATION_REFERENCE_PATH,
  configJsonSchema,
  renderConfigurationReference,
  undocumentedFields,
  wrapMarkdown,
} from "../../src/config/configuration-reference";

// docs/configuration.md is generated from the schema (npm run docs), as terraform-docs keeps a module's
// inputs table: these tests fail when it is stale, or when a field has nothing to say for itself.

const ROOT = path.join(__dirname, "..", "..");

describe("the configuration reference", () => {
  const reference = renderConfigurationReference();

  it("is committed as npm run docs writes it (run npm run docs after changing a schema)", () => {
    expect(fs.readFileSync(path.join(ROOT, CONFIGURATION_REFERENCE_PATH), "utf8")).toBe(reference);
  });

  it("describes every field and section of the schema", () => {
    const fields = Object.keys(configJsonSchema().properties ?? {});
    expect(fields.length).toBeGreaterThan(10); // a guard against passing on an empty schema
    expect(undocumentedFields()).toEqual([]);
  });

  it("lays out each field with what it takes and its default, as the schema defines them", () => {
    expect(reference).toMatch(/^\| `replicas` +\| integer 1 to 3 +\| `2` +\|$/m);
    expect(reference).toMatch(/^\| `natGateways` +\| single, perAz +\| `single` +\|$/m);
    expect(reference).toMatch(/^\| `name` +\| string +\| required +\|$/m);
    expect(reference).toMatch(/^\| `logRetentionDays` +\| one of 22 \(below\) +\| `90` +\|$/m);
    expect(reference).toContain("## `nodePools[]`: NodePools");
    expect(reference).toContain("#### `nodeClasses[].blockDeviceMappings[].ebs`");
  });

  it("says a text shared by several fields once, and points to it from the others", () => {
    expect(reference).toContain("- `version`: as `addons.vpc-cni.version`.");
  });

  it("fits a 120-column terminal outside its tables and code blocks", () => {
    const wide = reference.split("\n").filter((line) => line.length > 120 && !line.startsWith("|"));
    expect(wide).toEqual([]);
  });
});

describe("wrapMarkdown", () => {
  it("refills paragraphs and list items, with a hanging indent, and leaves code, tables and headings alone", () => {
    const text = [
      "# A heading that is longer than twenty characters",
      "",
      "one two three four five six",
      "seven",
      "",
      "- alpha beta gamma delta epsilon",
      "  zeta",
      "",
      "```yaml",
      "key: a value longer than twenty characters",
      "```",
      "| a table row longer than twenty characters |",
    ].join("\n");
    expect(wrapMarkdown(text, 20)).toBe(
      [
        "# A heading that is longer than twenty characters",
        "",
        "one two three four",
        "five six seven",
        "",
        "- alpha beta gamma",
        "  delta epsilon zeta",
        "",
        "```yaml",
        "key: a value longer than twenty characters",
        "```",
        "| a table row longer than twenty characters |",
      ].join("\n"),
    );
  });
});
