import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/*
 * A journey that changes what every other journey sees (its own admin, a payment gateway that
 * switches prices to rupees) runs against a server of its own: a fresh database, serving the
 * dist/web the config's webServer has just built.
 */

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Set by playwright.config.ts for a run whose webServer (`npm start`) has just bundled the server: there the
 * journeys' own servers run that bundle, as `npm start` does, instead of compiling the sources on every start.
 * The screenshot scripts, run against a server started by hand, keep the sources.
 */
const RUN_DIR = process.env.E2E_DATA_DIR;
const SERVER_COMMAND = RUN_DIR ? ['--enable-source-maps', 'dist/server/main.mjs'] : ['--import', 'tsx', 'src/server/main.ts'];

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

function spawnServer(port: number, dataDir: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, SERVER_COMMAND, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, WEB_DIST_DIR: path.join(ROOT, 'dist/web'), PUBLIC_URL: '', ...env },
  });
}

async function untilHealthy(base: string, server: ChildProcess, failure: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (server.exitCode !== null || Date.now() > deadline) throw new Error(failure());
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The data directory of a new installation that has started once and stopped: its database migrated, the job
 * queue's schema installed. Migrating took most of each own server's start; a copy of this directory starts in a
 * third of the time and is the same installation, untouched by any request. Made once per run; concurrent
 * workers wait for the one that makes it.
 */
async function newInstallation(): Promise<string | undefined> {
  if (!RUN_DIR) return undefined;
  const template = `${RUN_DIR}-new-installation`;
  const ready = path.join(template, 'ready');
  try {
    mkdirSync(template);
  } catch {
    const deadline = Date.now() + 120_000;
    while (!existsSync(ready)) {
      if (Date.now() > deadline) throw new Error(`no new installation in ${template}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return path.join(template, 'data');
  }
  const port = await freePort();
  let stderr = '';
  const server = spawnServer(port, path.join(template, 'data'), {});
  server.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
  await untilHealthy(`http://localhost:${port}`, server, () => `the new installation did not start: ${stderr}`);
  process.kill(-server.pid!, 'SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`the new installation did not stop cleanly (${code}): ${stderr}`);
  writeFileSync(ready, '');
  return path.join(template, 'data');
}

export async function startOwnServer(env: Record<string, string>, label: string, preferredPort = 0): Promise<TOwnServer> {
  const port = await freePort(preferredPort);
  const base = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), `formwork-e2e-${label}-`));
  const installation = await newInstallation();
  if (installation) {
    // Its database and the secrets that database was written with; never the pid file of a lock.
    cpSync(path.join(installation, 'pglite'), path.join(dataDir, 'pglite'), { recursive: true });
    cpSync(path.join(installation, 'secrets.json'), path.join(dataDir, 'secrets.json'));
  }
  let stderr = '';
  let stdout = '';
  const server = spawnServer(port, dataDir, env);
  server.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  server.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  await untilHealthy(base, server, () => `${label} e2e server did not start: ${stderr}`);
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
