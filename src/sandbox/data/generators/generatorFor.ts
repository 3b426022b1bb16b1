import type { HistoryRecords, HistoryResource } from '../../world.js';
import type { RecordGenerator } from './genContext.js';
import { crossMarginOrderGenerator } from './crossMarginOrderGenerator.js';
import { depositGenerator } from './depositGenerator.js';
import { futuresBillGenerator } from './futuresBillGenerator.js';
import { futuresFillGenerator } from './futuresFillGenerator.js';
import { futuresOrderGenerator } from './futuresOrderGenerator.js';
import { marginRecordGenerator } from './marginRecordGenerator.js';
import { planOrderGenerator } from './planOrderGenerator.js';
import { spotBillGenerator } from './spotBillGenerator.js';
import { spotFillGenerator } from './spotFillGenerator.js';
import { spotOrderGenerator } from './spotOrderGenerator.js';
import { taxFutureGenerator, taxSpotGenerator } from './taxRecordGenerators.js';
import { transferGenerator } from './transferGenerator.js';
import { withdrawalGenerator } from './withdrawalGenerator.js';

const generators: { [R in HistoryResource]: RecordGenerator<HistoryRecords[R]> } = {
  spotOrders: spotOrderGenerator,
  spotFills: spotFillGenerator,
  spotBills: spotBillGenerator,
  marginRecords: marginRecordGenerator,
  crossMarginOrders: crossMarginOrderGenerator,
  futuresOrders: futuresOrderGenerator,
  futuresFills: futuresFillGenerator,
  futuresBills: futuresBillGenerator,
  planOrders: planOrderGenerator,
  deposits: depositGenerator,
  withdrawals: withdrawalGenerator,
  transfers: transferGenerator,
  taxSpotRecords: taxSpotGenerator,
  taxFutureRecords: taxFutureGenerator,
};

/**
 * The record generator of a resource.
 *
 * @example
 * generatorFor('deposits')(ctx, 0, Date.now(), 1n).status;
 */
export function generatorFor<R extends HistoryResource>(resource: R): RecordGenerator<HistoryRecords[R]> {
  return generators[resource];
}
