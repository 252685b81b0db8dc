/** The documents name files that exist: a move that forgets a README, DEVELOPERS.md or SECURITY.md line fails here. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from '../helpers';

const DOCS = ['README.md', 'README.zh-CN.md', 'DEVELOPERS.md', 'SECURITY.md', 'harness/STATUS.md'];
const CITED = /(?<![\w/])(?:src|test|harness|scripts|bench|soak|media|resources)\/[\w/.*<>-]+/g;

describe('the documents cite files that exist', () => {
  it('every path under src, test, harness, scripts, bench, soak, media or resources they name is there', () => {
    const missing: string[] = [];
    let cited = 0;
    for (const doc of DOCS) {
      for (const m of fs.readFileSync(path.join(ROOT, doc), 'utf8').matchAll(CITED)) {
        const p = m[0].replace(/[.]+$/, '');
        if (/[*<>]/.test(p)) continue;
        cited++;
        if (!fs.existsSync(path.join(ROOT, p))) missing.push(`${doc}: ${p}`);
      }
    }
    assert.ok(cited > 100, `only ${cited} paths found: the pattern no longer reads the documents`);
    assert.deepStrictEqual(missing, []);
  });
});
