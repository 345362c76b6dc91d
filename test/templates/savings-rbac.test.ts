import * as fs from "node:fs";
import * as path from "node:path";
import { parseAllDocuments } from "yaml";
import { STATE_KINDS } from "../../src/cluster-state/state-kinds";

// The read-only role users bind for `npm run savings`: it must grant exactly what the reader lists, no more.

const FILE = path.join(__dirname, "..", "..", "templates", "savings", "read-only-rbac.yaml");

interface Rule {
  readonly apiGroups: string[];
  readonly resources: string[];
  readonly verbs: string[];
}

describe("templates/savings/read-only-rbac.yaml", () => {
  const [role, binding] = parseAllDocuments(fs.readFileSync(FILE, "utf8")).map((d) => d.toJS());
  const rules = role.rules as Rule[];

  it("grants get and list on every kind the report reads, and on nothing else", () => {
    const granted = rules.flatMap((r) => r.apiGroups.flatMap((g) => r.resources.map((res) => `${g}/${res}`))).sort();
    const read = STATE_KINDS.map((k) => {
      const group = k.apiVersion.includes("/") ? k.apiVersion.split("/")[0] : "";
      return `${group}/${k.path.split("/").pop()}`;
    }).sort();
    expect(granted).toEqual(read);
  });

  it("grants no verb beyond get and list, and no wildcard", () => {
    for (const rule of rules) {
      expect(rule.verbs).toEqual(["get", "list"]);
      expect([...rule.apiGroups, ...rule.resources]).not.toContain("*");
    }
  });

  it("binds the role to one group", () => {
    expect(binding).toMatchObject({ kind: "ClusterRoleBinding", roleRef: { kind: "ClusterRole", name: role.metadata.name }, subjects: [{ kind: "Group" }] });
  });
});
