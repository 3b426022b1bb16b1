import type { Partition, SnapshotStream } from '../streamDef.js';
import { text } from '../../load/column.js';
import { asEntries } from '../asList.js';

const demoTypes = ['susdt-futures', 'scoin-futures', 'susdc-futures'] as const;

/** E2 demo contract configuration: public, stored once per run (not per account). */
export const demoContracts: SnapshotStream = {
  kind: 'snapshot',
  name: 'demoContracts',
  endpoint: 'demoContracts',
  table: 'contract_snapshots',
  key: ['product_type', 'symbol'],
  accountColumn: null,
  global: true,
  partitions: () => demoTypes.map((t): Partition => ({ key: t, params: { productType: t }, columns: { product_type: t } })),
  fetch: async (call, p) => asEntries(await call('demoContracts', { ...p.params })),
  demo: true,
  sub: false,
  columns: { symbol: text('symbol') },
};
