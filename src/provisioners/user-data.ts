import { parse as parseToml } from "smol-toml";

// Karpenter merges a node class's userData with its own bootstrap, parsing it by AMI family; what it cannot
// parse fails every launch of the class ("invalid UserData", "parsing custom UserData"), after the apply. Only
// the parsing is checked here; what the user data does is the user's.

/**
 * AL2023 (nodeadm): user data that starts with a MIME header must be a multipart archive, which Go's
 * net/mail and mime/multipart then read; anything else is taken as a NodeConfig or a shell script.
 * @see https://github.com/aws/karpenter-provider-aws/blob/main/pkg/providers/amifamily/bootstrap/nodeadm.go (parseUserData)
 * @see https://github.com/aws/karpenter-provider-aws/blob/main/pkg/providers/amifamily/bootstrap/mime/mime.go (getReader)
 */
function mimeProblem(userData: string): string | undefined {
  const text = userData.trim();
  if (!text.startsWith("MIME-Version:") && !text.startsWith("Content-Type:")) return undefined;
  const [head] = text.split(/\r?\n\r?\n/, 1);
  const contentType = /^content-type:[ \t]*(.+)$/im.exec(head)?.[1];
  const format = "starts with a MIME header, so Karpenter reads it as a MIME multi-part archive";
  if (contentType === undefined) return `${format}, and its header has no Content-Type`;
  if (!/^multipart\//i.test(contentType)) {
    return `${format}, and its Content-Type is ${contentType.trim()}: use multipart/mixed with a boundary, or drop the MIME header (a plain shell script or NodeConfig is wrapped by Karpenter)`;
  }
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (boundary === undefined) return `${format}, and its Content-Type names no boundary`;
  const lines = text.split(/\r?\n/).map((line) => line.trimEnd());
  if (!lines.includes(`--${boundary}`)) return `${format}, and no part starts with --${boundary}`;
  if (!lines.includes(`--${boundary}--`)) return `${format}, and it does not end with --${boundary}--`;
  return undefined;
}

/**
 * Bottlerocket: user data is TOML settings, which Karpenter unmarshals before merging its own.
 * @see https://github.com/aws/karpenter-provider-aws/blob/main/pkg/providers/amifamily/bootstrap/bottlerocket.go
 */
function tomlProblem(userData: string): string | undefined {
  try {
    parseToml(userData);
    return undefined;
  } catch (error) {
    const where = error instanceof Error && "line" in error ? ` (line ${(error as { line: number }).line})` : "";
    const what = error instanceof Error ? error.message.split("\n")[0].replace(/^Invalid TOML document: /, "") : String(error);
    return `is not valid TOML${where}: ${what}; Bottlerocket user data is TOML settings, and Karpenter fails every launch with "invalid UserData" otherwise`;
  }
}

/** Why Karpenter could not parse this user data for a node class of this OS family (al2023, bottlerocket, ...). */
export function userDataProblem(userData: string, family: string): string | undefined {
  if (family === "al2023") return mimeProblem(userData);
  if (family === "bottlerocket") return tomlProblem(userData);
  return undefined;
}
