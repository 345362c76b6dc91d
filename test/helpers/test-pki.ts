import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Certificates for a real HTTPS server playing the Kubernetes API server, issued at test time by the openssl
// CLI, so that a client's TLS verification is exercised for real.

export interface TestPki {
  /** PEM of the CA that signed the server certificate. */
  readonly caPem: string;
  /** PEM of an unrelated CA, for the verification-failure case. */
  readonly otherCaPem: string;
  readonly serverKeyPem: string;
  readonly serverCertPem: string;
}

export function generateTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), "coredns-fix-pki-"));
  const openssl = (...args: string[]): void => {
    execFileSync("/usr/bin/openssl", args, { cwd: dir, stdio: "pipe" });
  };
  const ecKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  const caExtensions = ["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"];
  try {
    openssl("req", "-x509", ...ecKey, "-keyout", "ca.key", "-out", "ca.crt", "-days", "1", "-subj", "/CN=fake-kube-ca", ...caExtensions);
    openssl("req", "-x509", ...ecKey, "-keyout", "other.key", "-out", "other.crt", "-days", "1", "-subj", "/CN=other-ca", ...caExtensions);
    openssl("req", ...ecKey, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=kube-apiserver");
    writeFileSync(
      join(dir, "server.ext"),
      "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n",
    );
    openssl(
      "x509",
      "-req",
      "-in",
      "server.csr",
      "-CA",
      "ca.crt",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      "server.crt",
      "-days",
      "1",
      "-extfile",
      "server.ext",
    );
    const read = (name: string): string => readFileSync(join(dir, name), "utf8");
    return { caPem: read("ca.crt"), otherCaPem: read("other.crt"), serverKeyPem: read("server.key"), serverCertPem: read("server.crt") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
