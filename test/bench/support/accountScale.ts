import { derivedResources, resourceWeights } from '../../../src/sandbox/data/scalePlan.js';
import { HISTORY_SPAN_MS } from '../../../src/sandbox/data/seriesBook.js';
import { DAY_MS, endpoints } from '../../../src/api/endpoints.js';
import { historyStreams } from '../../../src/extract/streamRegistry.js';

/**
 * A sandbox --scale text that gives every account about `records` history records a sync can
 * actually read: the preset weights, with the resources behind a history horizon (X1 spot
 * orders, E21 futures orders: 90 days) generated denser so that their readable part keeps its
 * weight. The world itself then holds more than `records` per account (generated lazily).
 *
 * @example
 * startSandbox({ scale: accountScale(200_000), rateLimit: false });
 */
export function accountScale(records: number): string {
  const total = Object.values(resourceWeights).reduce((a, b) => a + b, 0);
  // Spot bills are derived from the spot movements (about three per fill), not a scale term.
  return Object.entries(resourceWeights).filter(([resource]) => !derivedResources.includes(resource as never)).map(([resource, weight]) => {
    const stream = historyStreams.find((s) => s.name === resource);
    const horizonDays: number | undefined = stream ? (endpoints[stream.endpoint] as { horizonDays?: number }).horizonDays : undefined;
    const visible = horizonDays === undefined ? 1 : (horizonDays * DAY_MS) / HISTORY_SPAN_MS;
    return `${resource}=${Math.round((records * weight) / total / visible)}`;
  }).join(',');
}
