import { endpoints } from '../../api/endpoints.js';
import { historyStreams } from '../../extract/streamRegistry.js';
import { configError } from './configError.js';

// The tax endpoints' span is 30 days in one copy of the official docs and 366 in another
// (spec/api-notes.md, "maximum span of the tax endpoints"): the window is configurable for them
// up to 366 days.
const taxPath = '/api/v2/tax/';
const taxMaxDays = 366;

/**
 * Checks `sync.windowDays` against each stream's endpoint: a window longer than the endpoint's
 * maximum span would be refused by the exchange (40705) on every request, so it is refused here,
 * naming the key, the maximum and the fix. Unknown or snapshot stream names are refused too.
 *
 * @example
 * checkWindowDays({ marginRecords: 45 }, 'tradeledger.json');
 * // throws: tradeledger.json: sync.windowDays.marginRecords: 45 days is more than E5 (marginRecords) allows: at most 30 days
 */
export function checkWindowDays(windowDays: Readonly<Record<string, number>>, source: string): void {
  for (const [name, days] of Object.entries(windowDays)) {
    const key = `sync.windowDays.${name}`;
    const stream = historyStreams.find((s) => s.name === name);
    if (stream === undefined) {
      throw configError(source, key, `"${name}" is not a history stream`, `use one of: ${historyStreams.map((s) => s.name).join(', ')}`);
    }
    const endpoint = endpoints[stream.endpoint];
    const max = endpoint.path.startsWith(taxPath) ? taxMaxDays : ('maxSpanDays' in endpoint ? endpoint.maxSpanDays : undefined) ?? stream.spanDays;
    if (max !== undefined && days > max) {
      throw configError(source, key, `${days} days is more than ${endpoint.id} (${stream.endpoint}) allows: at most ${max} days per request`,
        `set ${key} to ${max} or less, or remove it to use the default (${stream.spanDays ?? max} days)`);
    }
  }
}
