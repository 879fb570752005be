import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './test/oidc-provider.ts';
import { serverBundle } from './test/server-bundle.ts';

const bundle = serverBundle('main-test').main;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [bundle], {
    // Its own embedded database, whatever the environment names.
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<string>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${output}`)), timeoutMs);
      const check = () => {
        if (pattern.test(output)) {
          clearTimeout(deadline);
          resolve(output);
        } else setTimeout(check, 50);
      };
      check();
    });
  return { child, exited, ready, output: () => output };
}

function tempDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'formwork-main-'));
  dirs.push(dir);
  return dir;
}

describe('the server process', () => {
  it('logs one line with its URL, refuses a second process on the same data dir, and stops cleanly', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const first = startServer({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://localhost:${port}` });
    const out = await first.ready(/running at/);
    expect(out.match(/running at/g)).toHaveLength(1);
    expect(out).toContain(`http://localhost:${port}`);

    const second = startServer({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(dataDir);
    expect(second.output()).toContain(`pid ${first.child.pid}`);

    // A slow request in flight is finished before the process exits.
    const inFlight = fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status);
    await new Promise((resolve) => setTimeout(resolve, 20));
    first.child.kill('SIGTERM');
    expect(await inFlight).toBe(200);
    expect(await first.exited).toBe(0);

    // The lock is released: the same data dir starts again.
    const third = startServer({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    await third.ready(/running at/);
    third.child.kill('SIGINT');
    expect(await third.exited).toBe(0);
  }, 120_000);

  it('refuses to start on bad configuration and lists every problem', async () => {
    const bad = startServer({ DATA_DIR: tempDir(), PORT: 'eighty', OIDC_ISSUER: 'http://idp.example' });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toMatch(/PORT/);
    expect(bad.output()).toMatch(/OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be given together/);
  });
});
