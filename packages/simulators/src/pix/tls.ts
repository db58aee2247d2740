import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The test-only certificates of packages/simulators/tls (see its README): a test CA, the simulators' server
 * certificate for loopback, and client certificates. Read from the package folder, the same from src and dist.
 */
export interface TestTls {
  /** Path of the test CA's PEM (for NODE_EXTRA_CA_CERTS). */
  caFile: string;
  ca: string;
  serverCert: string;
  serverKey: string;
  /** A client certificate signed by the test CA, certificate and key in one PEM. */
  clientBundle: string;
  /** The same client certificate as PKCS#12 (passphrase `clientPassphrase`). */
  clientPkcs12: Buffer;
  clientPassphrase: string;
  /** A self-signed client certificate and key the test CA never signed. */
  strangerBundle: string;
}

export function testTls(): TestTls {
  const folder = join(__dirname, '..', '..', 'tls');
  const read = (name: string) => readFileSync(join(folder, name), 'utf8');
  return {
    caFile: join(folder, 'ca.pem'),
    ca: read('ca.pem'),
    serverCert: read('server.pem'),
    serverKey: read('server-key.pem'),
    clientBundle: read('client-bundle.pem'),
    clientPkcs12: readFileSync(join(folder, 'client.p12')),
    clientPassphrase: 'simulator',
    strangerBundle: read('stranger-bundle.pem'),
  };
}
