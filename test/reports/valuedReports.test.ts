import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fiatValuedQueries } from '../../src/reports/reportFormats.js';

const reports = fileURLToPath(new URL('../../reports', import.meta.url));

describe('fiatValuedQueries (the report files a download marks NO-<FIAT>-VALUES without the ECB rates)', () => {
  it('names every report query that reads the fiat, but data-quality (which lists the unpriced rows)', async () => {
    const readsFiat: string[] = [];
    for (const name of (await readdir(reports)).filter((n) => n.endsWith('.sql')).sort()) {
      if ((await readFile(path.join(reports, name), 'utf8')).includes(":'fiat'")) readsFiat.push(name.slice(0, -'.sql'.length));
    }
    expect(readsFiat).toContain('valued-ledger');
    expect(readsFiat.filter((q) => q !== 'data-quality')).toEqual([...fiatValuedQueries].sort());
  });
});
