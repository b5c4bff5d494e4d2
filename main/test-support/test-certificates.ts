/** A CA, a host certificate for `localhost` and a worker (client) certificate, made with openssl for one test run. Not a test file. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  dir: string;
  ca: string;
  hostCert: string;
  hostKey: string;
  workerCert: string;
  workerKey: string;
  remove(): void;
}

export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'yukta-tls-'));
  const at = (name: string) => join(dir, name);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Yukta test CA');
  writeFileSync(at('host.ext'), 'subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n');
  writeFileSync(at('worker.ext'), 'extendedKeyUsage=clientAuth\n');
  for (const [name, cn] of [
    ['host', 'localhost'],
    ['worker', 'worker-a'],
  ] as const) {
    ssl('req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`);
    ssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    );
  }
  return {
    dir,
    ca: at('ca.pem'),
    hostCert: at('host.pem'),
    hostKey: at('host.key'),
    workerCert: at('worker.pem'),
    workerKey: at('worker.key'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
