import * as assert from 'assert';
import * as fc from 'fast-check';
import { JsonDepthError, MAX_JSON_DEPTH, nestsDeeper, parseJson } from '../../../src/common/json';
import { fixtureFiles, realLines } from '../fuzz/mutate';

/** JSON.parse bounded in depth (src/common/json.ts): the same values as JSON.parse, deep text refused. */
describe('parseJson: JSON.parse, refusing text nested deeper than MAX_JSON_DEPTH', () => {
  const arrays = (d: number) => `${'['.repeat(d)}${']'.repeat(d)}`;

  it('counts arrays and objects, never brackets inside strings, escaped quotes and backslash runs included', () => {
    assert.strictEqual(nestsDeeper(arrays(3), 3), false);
    assert.strictEqual(nestsDeeper(arrays(4), 3), true);
    assert.strictEqual(nestsDeeper('{"a":{"b":[{}]}}', 3), true);
    assert.strictEqual(nestsDeeper('{"a":"[[[[{{{{"}', 1), false);
    assert.strictEqual(nestsDeeper('{"a":"\\"[[[[","b":1}', 1), false, 'an escaped quote does not end the string');
    assert.strictEqual(nestsDeeper('{"a":"x\\\\","b":[[1]]}', 2), true, 'an escaped backslash before the quote does end it');
    assert.strictEqual(nestsDeeper('["\\\\\\"[[[["]', 1), false);
    assert.strictEqual(nestsDeeper('{"a":"never closed [[[[', 1), false, 'unterminated: left to JSON.parse');
  });

  it('refuses deep text with JsonDepthError and parses text as deep as the limit', () => {
    const pad = (t: string) => `{"pad":"${' '.repeat(5000)}","x":${t}}`;
    assert.throws(
      () => parseJson(pad(arrays(MAX_JSON_DEPTH))),
      (e: unknown) => e instanceof JsonDepthError && e instanceof SyntaxError,
    );
    assert.ok(parseJson(pad(arrays(MAX_JSON_DEPTH - 1))));
    assert.throws(() => parseJson('{not json'), SyntaxError);
  });

  it('gives what JSON.parse gives on every real session-log line and on generated JSON', () => {
    const lines = realLines(
      [...fixtureFiles('transcript.jsonl'), ...fixtureFiles('rollout.jsonl'), ...fixtureFiles('gemini-session.jsonl')],
      2000,
    );
    assert.ok(lines.length > 500);
    for (const l of lines) assert.deepStrictEqual(parseJson(l), JSON.parse(l));
    fc.assert(
      fc.property(fc.json({ depthSize: 'large' }), fc.string({ maxLength: 6000 }), (json, pad) => {
        const text = `{"pad":${JSON.stringify(pad)},"v":${json}}`;
        assert.deepStrictEqual(parseJson(text), JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });
});
