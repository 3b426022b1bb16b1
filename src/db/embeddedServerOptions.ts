import { resolve } from 'node:path';
import { TradeledgerError } from '../errors.js';

/** Where the embedded PostgreSQL keeps its files and which port it listens on. */
export interface EmbeddedServerOptions {
  /** Absolute folder holding the cluster (`cluster/`) and its password (`connection.json`). */
  readonly dataDir: string;
  readonly port: number;
  /**
   * Trade durability for speed (fsync off). Only for throwaway data such as the test server:
   * a power cut can corrupt the cluster.
   */
  readonly fast: boolean;
}

/** Inputs, each optional; later layers win: defaults, then environment, then flags. */
export interface EmbeddedServerInput {
  dataDir?: string;
  port?: number | string;
  fast?: boolean;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export const defaultEmbeddedPort = 54329;

/**
 * Layers the embedded server's settings: default `.tradeledger/pg` under the working directory
 * and port 54329, then `TRADELEDGER_DATA_DIR` / `TRADELEDGER_PG_PORT`, then explicit options.
 * Rejects port 5432 (left to a system PostgreSQL) and anything that is not a port.
 *
 * @example
 * const opts = embeddedServerOptions({ port: flags.port }); // { dataDir: '/home/me/x/.tradeledger/pg', port: 54329, fast: false }
 */
export function embeddedServerOptions(input: EmbeddedServerInput = {}): EmbeddedServerOptions {
  const env = input.env ?? process.env;
  const cwd = input.cwd ?? process.cwd();
  const dataDir = resolve(cwd, input.dataDir ?? (env.TRADELEDGER_DATA_DIR || '.tradeledger/pg'));
  const rawPort = input.port ?? (env.TRADELEDGER_PG_PORT || defaultEmbeddedPort);
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 1024 || port > 65535 || port === 5432) {
    throw new TradeledgerError('CONFIG_PORT', `embedded PostgreSQL port ${JSON.stringify(String(rawPort))} is not usable`, {
      kind: 'config',
      hint: 'Pick a whole number from 1024 to 65535 other than 5432 (kept for a system PostgreSQL), via --port or TRADELEDGER_PG_PORT.',
    });
  }
  return Object.freeze({ dataDir, port, fast: input.fast ?? false });
}
