import * as assert from 'assert';
import { parseTeam, TeamError } from '../../../../src/handoff/team/registry';

describe('team schema: launch is one command line, without control characters', () => {
  it('the schema refuses control characters in launch, naming the line', () => {
    for (const esc of ['\\n', '\\r', '\\t', '\\u001b[2J', '\\u0000', '\\u007f', '\\u0085', '\\u009b31m', '\\u2028']) {
      const text = `[a]\nmode = "embedded"\nlaunch = "claude${esc}rm -rf ~"\n`;
      assert.throws(
        () => parseTeam(text, 'team.toml'),
        (e: TeamError) => e instanceof TeamError && e.line === 3 && e.field === '[a].launch' && /control characters/.test(e.message),
        esc,
      );
    }
    assert.strictEqual(
      parseTeam('[a]\nmode = "embedded"\nlaunch = "claude --model \'x y\'"\n', 'team.toml').agents[0].launch,
      "claude --model 'x y'",
    );
  });
});
