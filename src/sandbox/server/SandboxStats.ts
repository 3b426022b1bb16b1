/**
 * Request counters served at GET /_sandbox/stats: requests and rate-limit 429s per endpoint and
 * UID. Benchmarks read `rateLimited` to prove a sync made zero 429s.
 *
 * @example
 * stats.count('E5', '1001', false);
 */
export class SandboxStats {
  readonly requests: Record<string, Record<string, number>> = {};
  readonly rateLimited: Record<string, Record<string, number>> = {};
  total = 0;
  total429 = 0;

  count(endpointId: string, uid: string, limited: boolean): void {
    this.total++;
    bump(this.requests, endpointId, uid);
    if (limited) {
      this.total429++;
      bump(this.rateLimited, endpointId, uid);
    }
  }
}

function bump(table: Record<string, Record<string, number>>, a: string, b: string): void {
  const row = (table[a] ??= {});
  row[b] = (row[b] ?? 0) + 1;
}
