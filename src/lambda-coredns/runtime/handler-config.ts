/** The Lambda's configuration, from environment variables set by the Terraform side. */

export interface HandlerConfig {
  readonly clusterName: string;
  /** https origin of the API server. */
  readonly endpoint: URL;
  /** PEM of the cluster CA, decoded from CLUSTER_CA_DATA. */
  readonly caPem: string;
  readonly region: string;
}

export type Environment = Readonly<Record<string, string | undefined>>;

/** EKS cluster names: 1-100 characters, alphanumeric first. */
const CLUSTER_NAME_PATTERN = /^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$/;
const REGION_PATTERN = /^[a-z]{2}(-[a-z]+)+-\d+$/;
const PEM_CERTIFICATE = "-----BEGIN CERTIFICATE-----";

/** Throws one error listing every missing or invalid variable, each named. */
export function readHandlerConfig(env: Environment): HandlerConfig {
  const problems: string[] = [];
  const required = (name: string): string | undefined => {
    const value = env[name]?.trim();
    if (!value) problems.push(`${name} is not set`);
    return value || undefined;
  };

  const clusterName = required("CLUSTER_NAME");
  if (clusterName !== undefined && !CLUSTER_NAME_PATTERN.test(clusterName)) {
    problems.push(`CLUSTER_NAME "${clusterName}" is not an EKS cluster name (1-100 of A-Z a-z 0-9 _ -, alphanumeric first)`);
  }

  const endpointText = required("CLUSTER_ENDPOINT");
  const endpoint = endpointText === undefined ? undefined : parseEndpoint(endpointText);
  if (endpointText !== undefined && endpoint === undefined) {
    problems.push(`CLUSTER_ENDPOINT "${endpointText}" is not an https URL without path, query or credentials`);
  }

  // The value is not repeated in the message: it is long and says nothing a reader could fix by eye.
  const caData = required("CLUSTER_CA_DATA");
  const caPem = caData === undefined ? undefined : Buffer.from(caData, "base64").toString("utf8");
  if (caPem !== undefined && !caPem.includes(PEM_CERTIFICATE)) {
    problems.push("CLUSTER_CA_DATA is not the base64 of a PEM certificate (EKS certificate_authority.data)");
  }

  const region = required("AWS_REGION");
  if (region !== undefined && !REGION_PATTERN.test(region)) problems.push(`AWS_REGION "${region}" is not an AWS region name`);

  if (problems.length > 0 || !clusterName || !endpoint || !caPem || !region) {
    throw new Error(`CoreDNS fix Lambda misconfigured: ${problems.join("; ")}`);
  }
  return { clusterName, endpoint, caPem, region };
}

function parseEndpoint(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const bare = url.protocol === "https:" && url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
  return bare ? url : undefined;
}
