import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { MAX_CONFIG_BYTES, readConfigDocument } from "../../src/config/config-file";
import { ALIAS_BOMB } from "../helpers/hostile-files";
import { problemsOf } from "../helpers/problems";

// Every way one cluster file can fail to be read, each with the exact line the user sees. The app command's
// tests (test/main.test.ts) run a few of these end to end and check that nothing is written.

function writeTemp(content: string | Uint8Array, name = "cluster.yaml"): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aeks-file-")), name);
  fs.writeFileSync(file, content);
  return file;
}

const problems = (content: string | Uint8Array) => problemsOf(() => readConfigDocument(writeTemp(content)));

const A_MAPPING = 'a cluster config is a YAML or JSON mapping with at least a name, such as "name: my-cluster"';

describe("readConfigDocument", () => {
  it("returns the mapping of a YAML or a JSON file", () => {
    expect(readConfigDocument(writeTemp('name: demo\nregion: "eu-west-1"\n'))).toEqual({ name: "demo", region: "eu-west-1" });
    expect(readConfigDocument(writeTemp('{"name": "demo", "tags": {"team": "a"}}', "cluster.json"))).toEqual({ name: "demo", tags: { team: "a" } });
  });

  it("lets a few aliases through: a taint reused across pools", () => {
    const text = "name: demo\nnodePools:\n  - name: a\n    taints: [&gpu {key: gpu, effect: NoSchedule}]\n  - name: b\n    taints: [*gpu]\n";
    expect(readConfigDocument(writeTemp(text))).toMatchObject({ nodePools: [{ taints: [{ key: "gpu" }] }, { taints: [{ key: "gpu" }] }] });
  });

  it("merges <<: *anchor keys, the way to reuse a pool with changes", () => {
    const text = "name: demo\nnodePools:\n  - &base {name: a, capacityTypes: [spot], weight: 5}\n  - {<<: *base, name: b}\n";
    expect(readConfigDocument(writeTemp(text))).toEqual({
      name: "demo",
      nodePools: [
        { name: "a", capacityTypes: ["spot"], weight: 5 },
        { name: "b", capacityTypes: ["spot"], weight: 5 },
      ],
    });
  });

  it("reads a file of exactly 1 MiB", () => {
    const text = `name: demo\n${"#".repeat(MAX_CONFIG_BYTES - 12)}\n`;
    expect(Buffer.byteLength(text)).toBe(1048576);
    expect(readConfigDocument(writeTemp(text))).toEqual({ name: "demo" });
  });

  it("accepts UTF-8 with a byte order mark and characters beyond ASCII", () => {
    expect(readConfigDocument(writeTemp("\uFEFFname: demo\ntags: {owner: José}\n"))).toEqual({ name: "demo", tags: { owner: "José" } });
  });
});

describe("readConfigDocument refuses, in one line", () => {
  it("a missing file", () => {
    expect(problemsOf(() => readConfigDocument(path.join(os.tmpdir(), "aeks-no-such-dir", "cluster.yaml")))).toEqual([
      "cannot read the cluster config (no such file or folder); CLUSTER_CONFIG must name a readable YAML or JSON file",
    ]);
  });

  it("a path through a file, as if it were a folder", () => {
    expect(problemsOf(() => readConfigDocument(path.join(writeTemp("name: demo\n"), "cluster.yaml")))).toEqual([
      "cannot read the cluster config (a folder on its path is a file); CLUSTER_CONFIG must name a readable YAML or JSON file",
    ]);
  });

  it("an unreadable file", () => {
    // chmod 000 does not stop root, who runs CI here: open(2) fails with Node's EACCES error instead. The spy
    // sits on Node's module object, which the source's `import * as fs` reads through.
    const openSync = jest.spyOn(jest.requireActual<typeof fs>("node:fs"), "openSync").mockImplementationOnce(() => {
      throw Object.assign(new Error("EACCES: permission denied, open '/secret/cluster.yaml'"), { code: "EACCES" });
    });
    try {
      expect(problemsOf(() => readConfigDocument("/secret/cluster.yaml"))).toEqual([
        "cannot read the cluster config (permission denied); CLUSTER_CONFIG must name a readable YAML or JSON file",
      ]);
    } finally {
      openSync.mockRestore();
    }
  });

  it("a file over 1 MiB, before parsing it", () => {
    expect(problems(`name: demo\n${"#".repeat(MAX_CONFIG_BYTES)}\n`)).toEqual([
      "the file is larger than 1 MiB (1048576 bytes), the most a cluster config may be; it was not parsed",
    ]);
  });

  it("bytes that are not UTF-8, naming the first line that has them", () => {
    const latin1 = Buffer.concat([Buffer.from("name: demo\ntags:\n  owner: Jos"), Buffer.from([0xe9]), Buffer.from("\n")]);
    expect(problems(latin1)).toEqual(["line 3 is not valid UTF-8; save the file as UTF-8 (bytes in another encoding are not guessed at)"]);
    const utf16 = Buffer.from("\uFEFFname: demo\n", "utf16le");
    expect(problems(utf16)).toEqual([
      "is UTF-16 (little-endian), not UTF-8: PowerShell 5.1's > and Out-File write UTF-16; write UTF-8 instead (... | Out-File -Encoding utf8 <file>, or PowerShell 7, whose > writes UTF-8)",
    ]);
  });

  it.each([
    ["an empty file", ""],
    ["a file of blank lines", "\n  \n\t\n"],
  ])("%s", (_name, text) => {
    expect(problems(text)).toEqual([`the file is empty; ${A_MAPPING}`]);
  });

  it.each([
    ["only comments", "# name: demo\n"],
    ["null", "null\n"],
    ["~", "~\n"],
  ])("a document that is null: %s", (_name, text) => {
    expect(problems(text)).toEqual([`the document is null (only comments, "null" or "~"); ${A_MAPPING}`]);
  });

  it.each([
    ["a list", "- name: demo\n", `the document is a list, not a mapping; ${A_MAPPING}`],
    ["a JSON list", '[{"name": "demo"}]', `the document is a list, not a mapping; ${A_MAPPING}`],
    ["a string", "demo\n", `the document is a single string, not a mapping; ${A_MAPPING}`],
    ["a number", "42\n", `the document is a single number, not a mapping; ${A_MAPPING}`],
    ["a boolean", "true\n", `the document is a single boolean, not a mapping; ${A_MAPPING}`],
  ])("%s at the top level", (_name, text, line) => {
    expect(problems(text)).toEqual([line]);
  });

  it("a file that is no cluster config, without echoing what it holds", () => {
    // /etc/passwd, or a secret named by mistake: the message says what is wrong, not what the file says.
    const passwd = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n";
    const [line] = problems(passwd);
    expect(line).toBe(`the document is a single string, not a mapping; ${A_MAPPING}`);
    expect(line).not.toContain("root:x");
  });

  it("an alias bomb", () => {
    expect(problems(ALIAS_BOMB)).toEqual([
      "its aliases (*name) would expand to more than 100 copies of what they name: refused as a possible alias bomb; write the repeated values out",
    ]);
  });

  it("an alias whose anchor is not set before it", () => {
    expect(problems("name: demo\ntags: *common\n")).toEqual(["the YAML cannot be read: Unresolved alias (the anchor must be set before the alias): common"]);
  });

  it("a YAML syntax error, with its line and column", () => {
    expect(problems("name: demo\nnetwork:\n  vpcCidr: [10.0.0.0/16\n")).toEqual([
      "line 4, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]",
    ]);
  });

  it("a key given twice, and a second document", () => {
    expect(problems("name: demo\nregion: us-east-1\nregion: eu-west-1\n")).toEqual(["line 3, column 1: Map keys must be unique"]);
    expect(problems("name: demo\n---\nname: other\n")).toEqual(["line 2, column 1: Source contains multiple documents; please use YAML.parseAllDocuments()"]);
  });
});
