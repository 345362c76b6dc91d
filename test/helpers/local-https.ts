import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { TestPki } from "./test-pki";

// An HTTPS server on a free port of 127.0.0.1, with the test PKI's server certificate: what the stand-ins for the
// Kubernetes API (the CoreDNS Lambda's, the savings report's) listen with, and how they stop.

export interface LocalHttps {
  readonly url: string;
  /** Ends every connection (after `beforeClose`), then closes the server. */
  readonly close: () => Promise<void>;
}

export async function serveHttps(
  pki: TestPki,
  handle: (request: IncomingMessage, response: ServerResponse) => void,
  beforeClose: () => void = () => {},
): Promise<LocalHttps> {
  const server = createServer({ key: pki.serverKeyPem, cert: pki.serverCertPem }, handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        beforeClose();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
