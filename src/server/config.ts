import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const emptyToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

/** A typo must not fork hundreds of processes, each with its own memory and database connections. */
const MAX_WEB_CONCURRENCY = 64;
const WHOLE_PROCESSES = 'must be a whole number of server processes, 1 or more';

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  ENCRYPTION_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')
      .optional(),
  ),
  ADMIN_EMAILS: z.string().default(''),
  OIDC_ISSUER: z.preprocess(emptyToUndefined, z.url().optional()),
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  OIDC_PROVIDER_NAME: z.string().default('Single sign-on'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  WEB_DIST_DIR: z.string().default('./dist/web'),
  IMAGE_FETCH_ALLOWED_IPS: z.string().default(''),
  RENDER_THREADS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(64).optional()),
  SIGN_UPS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
  EXPORT_BACKGROUND_ABOVE: z.coerce.number().int().min(0).max(1_000_000).default(200),
  WEB_CONCURRENCY: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: WHOLE_PROCESSES })
      .int(WHOLE_PROCESSES)
      .min(1, WHOLE_PROCESSES)
      .max(MAX_WEB_CONCURRENCY, `must be at most ${MAX_WEB_CONCURRENCY}`)
      .default(1),
  ),
});

/** Cross-field rules, checked on the raw values so they are reported alongside field errors. */
function crossFieldProblems(source: NodeJS.ProcessEnv): string[] {
  const given = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'].filter((key) => source[key]?.trim()).length;
  return given > 0 && given < 3 ? ['OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be given together'] : [];
}

export type TOidcConfig = { issuer: string; clientId: string; clientSecret: string; name: string };

export type TConfig = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  sessionSecret: string;
  encryptionKey: Buffer;
  adminEmails: ReadonlySet<string>;
  oidc: TOidcConfig | undefined;
  logLevel: string;
  trustProxy: boolean;
  webDistDir: string;
  imageFetchAllowedIps: string[];
  /** Bulk render threads per process; undefined means one per core. */
  renderThreads: number | undefined;
  /** Accounts one client IP may create per hour. */
  signUpsPerIpPerHour: number;
  /** Accounts with more documents than this have "Export my data" built in the background. */
  exportBackgroundAbove: number;
  /**
   * Server processes main.ts runs on one port (PostgreSQL only); they share the machine's cores,
   * so each sizes its thread pools to its share (cores.ts). main.ts sets it to 1 on the embedded database.
   */
  webConcurrency: number;
};

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type TGeneratedSecrets = { sessionSecret: string; encryptionKey: string };

/**
 * Secrets that the operator did not give are generated once and kept in DATA_DIR, so sessions and
 * encrypted columns survive restarts without any setup.
 */
function loadOrCreateSecrets(dataDir: string): TGeneratedSecrets {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const parsed = z
      .object({ sessionSecret: z.string().min(32), encryptionKey: z.string().regex(/^[0-9a-f]{64}$/) })
      .safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) return parsed.data;
    throw new ConfigError([`${file} is damaged; restore it or delete it (sessions and encrypted settings will be lost)`]);
  }
  const secrets = { sessionSecret: randomBytes(32).toString('base64url'), encryptionKey: randomBytes(32).toString('hex') };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/** Parses the environment once. Throws ConfigError listing every problem. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): TConfig {
  const parsed = ZEnv.safeParse(source);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`)),
    ...crossFieldProblems(source),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const needsGenerated = !env.SESSION_SECRET || !env.ENCRYPTION_KEY;
  const generated = needsGenerated ? loadOrCreateSecrets(dataDir) : undefined;
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: env.DATABASE_URL,
    sessionSecret: env.SESSION_SECRET ?? generated!.sessionSecret,
    encryptionKey: Buffer.from(env.ENCRYPTION_KEY ?? generated!.encryptionKey, 'hex'),
    adminEmails: new Set(
      env.ADMIN_EMAILS.split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    ),
    oidc:
      env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
        ? {
            issuer: env.OIDC_ISSUER.replace(/\/$/, ''),
            clientId: env.OIDC_CLIENT_ID,
            clientSecret: env.OIDC_CLIENT_SECRET,
            name: env.OIDC_PROVIDER_NAME,
          }
        : undefined,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    webDistDir: path.resolve(env.WEB_DIST_DIR),
    imageFetchAllowedIps: env.IMAGE_FETCH_ALLOWED_IPS.split(',')
      .map((ip) => ip.trim())
      .filter(Boolean),
    renderThreads: env.RENDER_THREADS,
    signUpsPerIpPerHour: env.SIGN_UPS_PER_IP_PER_HOUR,
    exportBackgroundAbove: env.EXPORT_BACKGROUND_ABOVE,
    webConcurrency: env.WEB_CONCURRENCY,
  };
}

/** For entry points: the config, or the list of problems on stderr and exit code 1. */
export function loadConfigOrExit(): TConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
