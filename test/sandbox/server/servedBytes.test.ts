import { describe, expect, it } from 'vitest';
import { servedFingerprint, type Fingerprint } from './servedFingerprint.js';

/**
 * The sandbox serves exactly the bytes it served before. Tests and benchmarks compare synced
 * databases against this data, and BENCHMARKS.md figures were measured on it, so a speed-up of
 * the generators must not move a single byte.
 *
 * The hashes were produced by servedFingerprint.ts on the code before the generators were
 * optimised (commit df1994b, decimal.js everywhere), with
 *
 *   npx tsx test/sandbox/server/servedFingerprint.ts <seed> '<scale>'
 *
 * and checked to be the same on every run. Any INTENDED change to generated data (a new field, a
 * new record form, a different distribution) must update them deliberately, with the commit
 * saying why; an unintended difference is a bug.
 *
 * The third scale mimics the benchmarks' accountScale(): spot and futures orders generated far
 * denser than their fills, so most fills find a parent order (the other regime of parentOrder).
 */
const expected: { seed: number; scale: string; fingerprint: Fingerprint }[] = [
  {
    seed: 1, scale: 'small', fingerprint: {
      truth: '811d5b9c4561b11aabdf938f05dd503cb17df67f0675d2d3d8e9a83487d874cd',
      pages: '0bc6417669507d98aa04c3a1f3e4171a8ff8ef20ee66534285e588a1d3a7c270',
      truthAfterAdvance: '3c8e399db6c2bdda2f78c329a4aab125d39c7bbdf505870b11ff67e775355d90',
      pagesAfterAdvance: 'f786c87c7e30b1499a16353deae41c83c84fdd120c45ceda8aa309a0ca18bdeb',
      truthLines: 30004, pageCount: 330, pageRecords: 3784,
    },
  },
  {
    seed: 1, scale: 'medium', fingerprint: {
      truth: 'fb16a7370b18092bfa29b7dd2a1cfb5f892ecde0b36c9c9efb40672328ed788e',
      pages: 'bd69075cc049aa74f677e49740a805b8f49976b60ec64d07817fe511d4255cde',
      truthAfterAdvance: '315b6196eb8e5993b8db6170d5d93f02a5f13efa63a20eaa06e0e66ab3e04728',
      pagesAfterAdvance: 'dc59d8ecb6a379b461a41348fbe9999c8dfbd5cce2b0e942fc2078575ac49149',
      truthLines: 100010, pageCount: 358, pageRecords: 12581,
    },
  },
  {
    seed: 7, scale: 'small', fingerprint: {
      truth: 'c2d2efe2d93379109ba8dd39545e7314d0e7e902d4ca8c7e3d5f11568375c085',
      pages: '4822b2a14f43727ea20203385a36e425327c477fade7cb5921d6e8c47f0b3ee5',
      truthAfterAdvance: 'ddba26787dda5f7e39df0a3eb64fe845409cc454105808941c1bff59bbd00b22',
      pagesAfterAdvance: 'e5f62ef96fe84292c62db00dbcb36d941d9c93a2ae5d5dec873b38856b7024b9',
      truthLines: 30004, pageCount: 330, pageRecords: 3784,
    },
  },
  {
    seed: 7, scale: 'medium', fingerprint: {
      truth: 'cafc902d2b7fc16a12b78ff3a941c039b6bd496a51d8be47b2042a31c39fbb69',
      pages: '24ba3bcef0b36e08b67dd9db74d85615ceb9bdc72dd7851dc19c1857418ef2e2',
      truthAfterAdvance: '29c55e880f77dbfb77cd08be2a363e5c5436388d64be0520b9d007c743a4ea44',
      pagesAfterAdvance: '9f3311325059c2b26f8d47f44a41fd6c7e1b85801fbff0c09560dc72e13ae40d',
      truthLines: 100010, pageCount: 358, pageRecords: 12581,
    },
  },
  {
    seed: 1, scale: 'spotOrders=8000,spotFills=1000,futuresOrders=6000,futuresFills=700,subAccounts=1', fingerprint: {
      truth: 'da9cff791bbce25237109d810f1dd1bbd947221bdd9316d83d6e75cc86c35be8',
      pages: 'e26520330f805e2649b66a533cdf512d2f757a0b5c1ac6f1d7d867e8a73191fd',
      truthAfterAdvance: '6145cb4c8f7fd5a0367175df3b40383aee71c4415cc821e443bce36d80a78cdb',
      pagesAfterAdvance: 'a9ae3a993bd9a2ff04243fd88b01ae4fe840b67079dbc73c79cd059bf5b1689d',
      truthLines: 53796, pageCount: 350, pageRecords: 3431,
    },
  },
];

describe('the sandbox serves byte-identical data (ground truth and every history page)', () => {
  it.each(expected.map((e) => [`seed ${e.seed}, ${e.scale}`, e] as const))('%s', async (_name, e) => {
    expect(await servedFingerprint(e.seed, e.scale)).toEqual(e.fingerprint);
  }, 120_000);
});
