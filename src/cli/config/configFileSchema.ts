import { z } from 'zod';

/** Where one secret comes from: an environment variable or a file, never the value itself. */
const secretRefs = {
  apiKey: z.string().min(1).optional(),
  apiKeyEnv: z.string().min(1).optional(),
  apiKeyFile: z.string().min(1).optional(),
  secretEnv: z.string().min(1).optional(),
  secretFile: z.string().min(1).optional(),
  passphraseEnv: z.string().min(1).optional(),
  passphraseFile: z.string().min(1).optional(),
};

const accountFields = {
  name: z.string().min(1).regex(/^[A-Za-z0-9_.-]+$/, 'use letters, digits, "_", "." or "-"'),
  uid: z.string().regex(/^\d+$/, 'a UID is digits only').optional(),
  // US Form 8949: how the broker reported this account's sales on Form 1099-DA (docs/gains.md).
  form1099DA: z.enum(['basis-reported', 'basis-not-reported', 'none']).optional(),
  ...secretRefs,
};

const subAccountSchema = z.strictObject(accountFields);

const accountSchema = z.strictObject({
  ...accountFields,
  demo: z.boolean().optional(),
  subAccounts: z.array(subAccountSchema).optional(),
});

/**
 * The config file (JSON). Accounts name the environment variables or files their secrets are
 * read from; a secret written into the file itself is refused before this schema runs.
 *
 * @example
 * { "accounts": [{ "name": "main", "apiKeyEnv": "MAIN_KEY", "secretEnv": "MAIN_SECRET", "passphraseEnv": "MAIN_PASS" }] }
 */
export const configFileSchema = z.strictObject({
  $schema: z.string().optional(),
  baseUrl: z.url().optional(),
  accounts: z.array(accountSchema).min(1, 'list at least one account'),
  sync: z.strictObject({
    since: z.string().optional(),
    historyDays: z.number().int().positive().optional(),
    safetyLagSeconds: z.number().int().nonnegative().optional(),
    lookbackDays: z.number().nonnegative().optional(),
    concurrency: z.number().int().positive().max(256).optional(),
    parallelWindows: z.number().int().positive().max(16).optional(),
    symbols: z.array(z.string().min(1)).optional(),
    streams: z.array(z.string().min(1)).optional(),
    windowDays: z.record(z.string(), z.number().positive()).optional(),
  }).optional(),
  // Cron pattern (UTC) for the workers' nightly enqueue of every account; see src/worker/nightlySchedule.ts.
  schedule: z.string().min(1).optional(),
  worker: z.strictObject({
    concurrency: z.number().int().positive().max(64).optional(),
    heartbeatSeconds: z.number().positive().optional(),
    sweepSeconds: z.number().positive().optional(),
    staleSeconds: z.number().positive().optional(),
    stopGraceSeconds: z.number().nonnegative().max(3600).optional(),
  }).optional(),
  client: z.strictObject({
    safetyFactor: z.number().gt(0).max(1).optional(),
    maxRetries: z.number().int().nonnegative().max(20).optional(),
    timeoutMs: z.number().int().positive().optional(),
    rateLimit: z.boolean().optional(),
    maxClockSkewSeconds: z.number().positive().optional(),
    // The key of the per-address rate budgets shared in the database (default: the host name).
    budgetAddress: z.string().min(1).max(200).optional(),
  }).optional(),
});

export type ConfigFile = z.infer<typeof configFileSchema>;
export type ConfigFileAccount = z.infer<typeof accountSchema>;
export type ConfigFileSubAccount = z.infer<typeof subAccountSchema>;
