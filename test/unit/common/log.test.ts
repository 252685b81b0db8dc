import * as assert from 'assert';
import { escaped, logTo, SILENT, tagged } from '../../../src/common/log';

describe('one log interface', () => {
  it('tagged names the component, escaped leaves no control character, both keep the level', () => {
    const lines: string[] = [];
    const log = tagged(escaped(logTo((level, m) => void lines.push(`${level} ${m}`))), 'session logs');
    log.warn('a\x1b[31m red\nline');
    log.debug('plain');
    assert.deepStrictEqual(lines, ['warn session logs: a\\u001b[31m red\\u000aline', 'debug session logs: plain']);
  });

  it('SILENT writes nothing and never throws', () => {
    for (const level of ['trace', 'debug', 'info', 'warn', 'error'] as const) assert.strictEqual(SILENT[level]('x'), undefined);
  });
});
