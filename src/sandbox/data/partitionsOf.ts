import { demoProductTypes, productTypes } from '../../api/endpoints.js';
import type { HistoryResource, PartitionKey } from '../world.js';
import { isFuturesResource } from './scalePlan.js';

/**
 * The partitions of a resource (world.ts): margin types, product types, or just 'all'.
 *
 * @example
 * partitionsOf('marginRecords'); // ['crossed', 'isolated']
 */
export function partitionsOf(resource: HistoryResource): PartitionKey[] {
  if (resource === 'marginRecords') return ['crossed', 'isolated'];
  if (isFuturesResource(resource)) return [...productTypes, ...demoProductTypes];
  return ['all'];
}

/**
 * The partitions that hold data for an account: demo accounts trade only the demo product types.
 *
 * @example
 * dataPartitionsOf('futuresOrders', true); // the three demo product types
 */
export function dataPartitionsOf(resource: HistoryResource, demo: boolean): PartitionKey[] {
  if (!isFuturesResource(resource)) return demo ? [] : partitionsOf(resource);
  return demo ? [...demoProductTypes] : [...productTypes];
}
