import { startSandbox } from '../../src/sandbox/startSandbox.js';
import { writeFirmConfig } from './firmConfig.js';
const sb = await startSandbox({ port: 0, seed: 1, scale: 'deposits=20,transfers=20,spotFills=30', accounts: 3, rateLimit: true });
const c = writeFirmConfig(sb, { sync: { safetyLagSeconds: 0 }, worker: { sweepSeconds: 1, heartbeatSeconds: 1, staleSeconds: 30 } });
console.log(JSON.stringify({ file: c.file, env: c.env, accounts: c.accounts, base: sb.baseUrl }));
await new Promise((r) => setTimeout(r, 600_000));
