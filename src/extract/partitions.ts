import { demoProductTypes, productTypes } from '../api/endpoints.js';
import type { Partition, PartitionContext } from './streamDef.js';

/** The one partition of an endpoint that needs none. @example partitions: () => single */
export const single: readonly Partition[] = [{ key: 'all', params: {}, columns: {} }];

/**
 * One partition per futures product type: the demo types for a demo account, the real ones
 * otherwise. The product type fills the `product_type` column.
 *
 * @example
 * partitions: byProductType
 */
export function byProductType(ctx: PartitionContext): Partition[] {
  const types = ctx.demo ? demoProductTypes : productTypes;
  return types.map((t) => ({ key: t, params: { productType: t }, columns: { product_type: t } }));
}

/** E5's margin types, filling `margin_type`. @example partitions: () => byMarginType */
export const byMarginType: readonly Partition[] = (['crossed', 'isolated'] as const).map((t) => ({
  key: t, params: { marginType: t }, columns: { margin_type: t },
}));
