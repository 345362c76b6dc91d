import { userDataProblem } from "../../src/provisioners/user-data";
import { clusterProblems as problemsOf } from "../helpers/problems";

// User data Karpenter cannot parse fails every launch of its node class, after the apply. The accepted
// MIME archive is the one in Karpenter's EC2NodeClass documentation.

const KARPENTER_DOCS_MIME = [
  "MIME-Version: 1.0",
  'Content-Type: multipart/mixed; boundary="BOUNDARY"',
  "",
  "--BOUNDARY",
  'Content-Type: text/x-shellscript; charset="us-ascii"',
  "",
  "#!/bin/bash",
  'echo "Running custom user data script"',
  "",
  "--BOUNDARY--",
  "",
].join("\n");
const MIME = "starts with a MIME header, so Karpenter reads it as a MIME multi-part archive";

describe("AL2023 user data (nodeadm)", () => {
  it("accepts a multipart archive, a plain shell script and a NodeConfig, which Karpenter wraps itself", () => {
    expect(userDataProblem(KARPENTER_DOCS_MIME, "al2023")).toBeUndefined();
    expect(userDataProblem("#!/bin/bash\necho hi\n", "al2023")).toBeUndefined();
    expect(userDataProblem("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec: {}\n", "al2023")).toBeUndefined();
  });

  it.each([
    [
      "a single-part MIME header",
      'Content-Type: text/x-shellscript; charset="us-ascii"\n\n#!/bin/bash\necho hi\n',
      `${MIME}, and its Content-Type is text/x-shellscript; charset="us-ascii": use multipart/mixed with a boundary, or drop the MIME header (a plain shell script or NodeConfig is wrapped by Karpenter)`,
    ],
    ["no Content-Type", "MIME-Version: 1.0\n\n--B\n\n--B--\n", `${MIME}, and its header has no Content-Type`],
    ["no boundary", "MIME-Version: 1.0\nContent-Type: multipart/mixed\n\n", `${MIME}, and its Content-Type names no boundary`],
    ["no part", 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n#!/bin/bash\n', `${MIME}, and no part starts with --B`],
    ["no closing line", KARPENTER_DOCS_MIME.replace("--BOUNDARY--", ""), `${MIME}, and it does not end with --BOUNDARY--`],
  ])("refuses %s", (_name, userData, problem) => {
    expect(userDataProblem(userData, "al2023")).toBe(problem);
  });
});

describe("Bottlerocket user data (TOML)", () => {
  it("accepts TOML settings", () => {
    expect(userDataProblem("[settings.kubernetes]\nmax-pods = 110\n[settings.host-containers.admin]\nenabled = true\n", "bottlerocket")).toBeUndefined();
  });

  it("refuses what is not TOML, with the line, through the config", () => {
    expect(problemsOf({ nodeClasses: [{ name: "default", amiAlias: "bottlerocket@latest", userData: "[settings.kubernetes]\nmax-pods = = 1\n" }] })).toEqual([
      `nodeClasses[0].userData: got "[settings.kubernetes]\\nmax-pods = = 1\\n"; is not valid TOML (line 2): invalid value; Bottlerocket user data is TOML settings, and Karpenter fails every launch with "invalid UserData" otherwise`,
    ]);
  });

  it("leaves other families' user data alone: Windows PowerShell and Custom AMIs take anything", () => {
    expect(userDataProblem("<powershell>Write-Host hi</powershell>", "windows2022")).toBeUndefined();
    expect(userDataProblem("[not toml", "custom")).toBeUndefined();
  });
});
