/**
 * A UTC instant as 'YYYY-MM-DD HH:MM UTC', or a dash.
 *
 * @example
 * utcMinute('2026-01-02T03:04:05.000Z'); // '2026-01-02 03:04 UTC'
 */
export function utcMinute(iso: string | null): string {
  return iso === null ? '—' : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/**
 * How long ago an instant was, in words a person reads at a glance.
 *
 * @example
 * ago('2026-01-01T00:00:00Z', Date.parse('2026-01-01T03:00:00Z')); // '3 hours ago'
 */
export function ago(iso: string | null, nowMs: number): string {
  if (iso === null) return 'never';
  const minutes = Math.round((nowMs - Date.parse(iso)) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 90) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hours ago`;
  return `${Math.round(hours / 24)} days ago`;
}
