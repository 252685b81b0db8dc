import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as path from 'path';
import { main } from '../../../src/cli/cli';
import { VERB_USAGE } from '../../../src/cli/usage';

const CLI = path.resolve('dist/cli.js');

/** Runs the CLI in-process: its exit code and what it printed on stdout and stderr. */
async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    argv,
    (s) => out.push(s),
    (s) => err.push(s),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The `--option` names a usage text lists. */
function optionsIn(text: string): string[] {
  return [...new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((m) => m[1]))].filter((o) => o !== 'help');
}

/** A verb's usage lines: the words after `agent-lens` (`task report`, `notify test`) and the options the line lists. */
function invocations(verb: string): { words: string[]; options: string[] }[] {
  return [...VERB_USAGE[verb].matchAll(/^(?:usage: | +)agent-lens ([a-z]+(?: [a-z]+)*)(.*(?:\n {20,}.*)*)/gm)].map((m) => ({
    words: m[1].split(' '),
    options: optionsIn(m[2]),
  }));
}

describe('agent-lens VERB --help', () => {
  for (const verb of Object.keys(VERB_USAGE)) {
    it(`${verb} --help, -h and help ${verb} print ${verb}'s usage and exit 0`, async () => {
      for (const argv of [[verb, '--help'], [verb, '-h'], ['help', verb], ...invocations(verb).map((i) => [...i.words, '--help'])]) {
        const r = await run(argv);
        assert.strictEqual(r.code, 0, `${argv.join(' ')}: ${r.err}`);
        assert.strictEqual(r.err, '', argv.join(' '));
        assert.ok(r.out.startsWith(`usage: agent-lens ${verb}`), `${argv.join(' ')} printed: ${r.out.slice(0, 80)}`);
        assert.strictEqual(r.out, VERB_USAGE[verb]);
      }
    });

    it(`every option ${verb}'s usage lists is one its parser knows`, async () => {
      const lines = invocations(verb);
      assert.ok(
        lines.some((l) => l.options.length > 0),
        `${verb}: no usage line with options`,
      );
      for (const { words, options } of lines) {
        for (const option of options) {
          // A known option fails later (a missing value, another required option, no hub), never as unknown.
          const r = await run([...words, `--${option}`, '--', 'x']);
          assert.doesNotMatch(r.err, /unknown (argument|option)/, `${words.join(' ')} --${option}: ${r.err}`);
        }
      }
    });
  }

  it('the general usage names every verb and says how to get one verb’s help', async () => {
    const r = await run(['--help']);
    assert.strictEqual(r.code, 0);
    for (const verb of Object.keys(VERB_USAGE)) assert.match(r.out, new RegExp(`agent-lens ${verb}\\b`));
    assert.match(r.out, /agent-lens VERB --help/);
  });

  it('help for a verb that does not exist says which exist, on stderr, exit 2', async () => {
    const r = await run(['help', 'replya']);
    assert.strictEqual(r.code, 2);
    assert.strictEqual(r.out, '');
    assert.match(r.err, /no command "replya" \(the commands: replay, serve/);
  });

  it('the built CLI prints replay --help (as a user runs it)', function () {
    const r = spawnSync(process.execPath, [CLI, 'replay', '--help'], { encoding: 'utf8' });
    assert.strictEqual(r.status, 0, r.stderr);
    assert.strictEqual(r.stdout, VERB_USAGE.replay + '\n');
  });
});
