/**
 * An RFC 3161 timestamp server on loopback: each request is answered by `openssl ts -reply` with a
 * timestamp authority (and its CA) made for the test, so the seal gets a real, verifiable token.
 * `failWith` makes it answer every request with that HTTP status instead.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type TTimestampServer = {
  url: string;
  /** How many requests it answered with a token. */
  stamped: () => number;
  failWith: (status: number | null) => void;
  close: () => Promise<void>;
};

const openssl = (dir: string, ...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });

function makeAuthority(dir: string): void {
  writeFileSync(path.join(dir, 'tsa.ext'), 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n');
  writeFileSync(
    path.join(dir, 'tsa.cnf'),
    [
      '[ tsa ]',
      'default_tsa = tsa_config',
      '[ tsa_config ]',
      `dir = ${dir}`,
      'serial = $dir/serial',
      'crypto_device = builtin',
      'signer_cert = $dir/tsa.pem',
      'certs = $dir/ca.pem',
      'signer_key = $dir/tsa.key',
      'signer_digest = sha256',
      'default_policy = 1.2.3.4.1',
      'digests = sha256, sha384, sha512',
      'accuracy = secs:1',
      'ordering = yes',
      'tsa_name = no',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );
  writeFileSync(path.join(dir, 'serial'), '01\n');
  openssl(
    dir,
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Test timestamp CA',
  );
  openssl(
    dir,
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'tsa.key',
    '-out',
    'tsa.csr',
    '-subj',
    '/CN=Test timestamp authority',
  );
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    'tsa.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'tsa.pem',
    '-days',
    '2',
    '-extfile',
    'tsa.ext',
  );
}

export async function startTimestampServer(): Promise<TTimestampServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'formwork-tsa-'));
  makeAuthority(dir);
  let failure: number | null = null;
  let stamped = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (failure !== null) {
        response.writeHead(failure).end('refused for the test');
        return;
      }
      try {
        const query = path.join(dir, `query-${stamped}.tsq`);
        const reply = path.join(dir, `reply-${stamped}.tsr`);
        writeFileSync(query, Buffer.concat(chunks));
        openssl(dir, 'ts', '-reply', '-config', path.join(dir, 'tsa.cnf'), '-queryfile', query, '-out', reply);
        stamped++;
        response.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(readFileSync(reply));
      } catch (error) {
        response.writeHead(500).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    stamped: () => stamped,
    failWith: (status) => {
      failure = status;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
