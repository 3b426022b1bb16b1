// The matcher of each rule set as it was before the engine computed in scaled integers (issue 24
// item 5; the copies beside this file are src/gains/lotMatcher.ts, lotStore.ts
// and canadaMatcher.ts of main at f7a9080, imports redirected), so
// gains.bench.ts and test/gains/matcherIdentity.test.ts can run old and new side by side and
// compare every match. Same choices as src/gains/ruleSets.ts.
import { lotMatcher } from './lotMatcherBefore.js';
// The UK matcher did not change (it still computes in decimal.js): the one in src/ is the old one.
import { ukShareMatcher } from '../../../src/gains/ukShareMatcher.js';
import { canadaMatcher } from './canadaMatcherBefore.js';
import type { Matcher } from '../../../src/gains/gainsEvent.js';
import type { LotSelections } from '../../../src/gains/lotSelections.js';
import type { RuleSetName } from '../../../src/gains/ruleSets.js';

/** The old matcher for a rule set, as ruleSet(name).matcher(pools, selections) made it. */
export function matcherBefore(name: RuleSetName, pools: 'universal' | 'wallet', selections?: LotSelections): Matcher {
  switch (name) {
    case 'uk': return ukShareMatcher();
    case 'us': return lotMatcher({ method: 'fifo', pools: 'wallet', walletFromDay: '2025-01-01', selections });
    case 'ca': return canadaMatcher();
    case 'de': case 'au': case 'fifo': return lotMatcher({ method: 'fifo', pools });
    case 'lifo': return lotMatcher({ method: 'lifo', pools });
    case 'hifo': return lotMatcher({ method: 'hifo', pools });
    case 'average': return lotMatcher({ method: 'average', pools });
  }
}
