/**
 * A throwaway PostgreSQL on loopback for a benchmark, as CI starts one: its own data directory,
 * fsync off, trust authentication. Undefined when this machine has no PostgreSQL installed.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './harness.ts';

export type TLoopbackPostgres = { url: string; stop: () => void };

function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin/initdb')))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length ? path.join(root, versions.at(-1)!, 'bin') : undefined;
}

export async function startLoopbackPostgres(): Promise<TLoopbackPostgres | undefined> {
  const bin = postgresBin();
  if (!bin) return undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'formwork-bench-pg-'));
  // PostgreSQL refuses to run as root; as root, run it as the postgres user, as CI does.
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { stdio: 'ignore' })
      : execFileSync(path.join(bin, tool), args, { stdio: 'ignore' });
  if (asRoot) {
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    } catch {
      execFileSync('useradd', ['--system', '--no-create-home', 'postgres']);
    }
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    chownSync(dir, uid, -1);
  }
  const port = await freePort();
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust']);
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`,
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
