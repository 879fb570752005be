import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/*
 * A journey that changes what every other journey sees (its own admin, a payment gateway that
 * switches prices to rupees) runs against a server of its own: a fresh database, serving the
 * dist/web the config's webServer has just built.
 */

const ROOT = path.resolve(import.meta.dirname, '..');

/** A port nothing listens on: `preferred` when it is free (a developer's own range), else any. */
export async function freePort(preferred = 0): Promise<number> {
  const attempt = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(port, '127.0.0.1', () => {
        const address = probe.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
        probe.close();
      });
    });
  if (preferred > 0) {
    try {
      return await attempt(preferred);
    } catch {
      // Taken: any free port will do.
    }
  }
  return attempt(0);
}

export type TOwnServer = {
  base: string;
  port: number;
  /**
   * The verification link the server wrote to its log for `email` (an ADMIN_EMAILS address while
   * no mail server is set up): how the first admin of a fresh installation proves the address.
   */
  verificationLink(email: string): Promise<string>;
  stop(): void;
};

/** Waits for the log line that carries `email`'s verification link in `log()`. */
export async function linkFromLog(log: () => string, email: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    for (const line of log().split('\n').reverse()) {
      if (!line.includes(email)) continue;
      const match = /(\/verify-email\?token=[A-Za-z0-9_-]{43})/.exec(line);
      if (match) return match[1]!;
    }
    if (Date.now() > deadline) throw new Error(`no verification link for ${email} in the server's log`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startOwnServer(env: Record<string, string>, label: string, preferredPort = 0): Promise<TOwnServer> {
  const port = await freePort(preferredPort);
  const base = `http://localhost:${port}`;
  let stderr = '';
  let stdout = '';
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), `formwork-e2e-${label}-`)),
      WEB_DIST_DIR: path.join(ROOT, 'dist/web'),
      PUBLIC_URL: '',
      ...env,
    },
  });
  server.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  server.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (server.exitCode !== null || Date.now() > deadline) throw new Error(`${label} e2e server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    port,
    verificationLink: (email) => linkFromLog(() => stdout, email),
    stop() {
      if (server.pid && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
    },
  };
}

/**
 * For the screenshot scripts, which run against a server already running: the verification link it
 * logged for `email` (an ADMIN_EMAILS address, no mail server), from the log file SERVER_LOG names.
 */
export function linkFromLogFile(email: string): Promise<string> {
  const file = process.env.SERVER_LOG;
  if (!file) {
    throw new Error(
      `${email} needs a verified address to be an admin: set SERVER_LOG to the server's log file (the link is there), or make the admin with npm run admin:create before starting the server`,
    );
  }
  return linkFromLog(() => (existsSync(file) ? readFileSync(file, 'utf8') : ''), email);
}
