/** What GET /_sandbox/stats answers: requests and 429s per endpoint id and UID. */
export interface StatsSnapshot {
  total: number;
  total429: number;
  requests: Record<string, Record<string, number>>;
  rateLimited: Record<string, Record<string, number>>;
}

/**
 * Reads the sandbox's request counters over HTTP, as any client of the sandbox would.
 *
 * @example
 * const before = await sandboxStats(sandbox.baseUrl);
 */
export async function sandboxStats(baseUrl: string): Promise<StatsSnapshot> {
  const res = await fetch(`${baseUrl}/_sandbox/stats`);
  if (!res.ok) throw new Error(`GET /_sandbox/stats answered ${res.status}`);
  return (await res.json()) as StatsSnapshot;
}

/**
 * Requests made between two snapshots, per "uid endpointId" budget.
 *
 * @example
 * const made = statsDelta(before, after); // Map { '2001 E5' => 50, ... }
 */
export function statsDelta(before: StatsSnapshot, after: StatsSnapshot, table: 'requests' | 'rateLimited' = 'requests'): Map<string, number> {
  const out = new Map<string, number>();
  for (const [endpoint, byUid] of Object.entries(after[table])) {
    for (const [uid, n] of Object.entries(byUid)) {
      const d = n - (before[table][endpoint]?.[uid] ?? 0);
      if (d > 0) out.set(`${uid} ${endpoint}`, d);
    }
  }
  return out;
}
