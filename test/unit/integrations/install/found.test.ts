import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { agentFound } from '../../../../src/integrations/install/found';

describe('agents found on this machine (the install picker’s defaults)', () => {
  let tmp: string;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-found-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('finds an agent by an executable command on PATH, not by a plain file or a folder of that name', () => {
    const bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'codex'), '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(bin, 'gemini'), 'not executable', { mode: 0o644 });
    fs.mkdirSync(path.join(bin, 'opencode'));
    const env = { PATH: `${path.join(tmp, 'nowhere')}${path.delimiter}${bin}` };
    const hook = (d: string) => path.join(tmp, 'home', d, 'settings.json');
    assert.deepStrictEqual(agentFound('codex', hook('.codex'), env, 'linux'), { found: true, why: 'codex on PATH' });
    assert.deepStrictEqual(agentFound('gemini', hook('.gemini'), env, 'linux'), { found: false });
    assert.deepStrictEqual(agentFound('opencode', path.join(tmp, 'home', '.config', 'opencode', 'plugin', 'agent-lens.js'), env, 'linux'), {
      found: false,
    });
  });

  it('finds an agent whose config folder exists; a plugin counts its agent’s config folder, not the plugin folder', () => {
    const home = path.join(tmp, 'home');
    fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
    fs.mkdirSync(path.join(home, '.config', 'opencode'), { recursive: true });
    const env = { PATH: '' };
    assert.strictEqual(agentFound('claude-code', path.join(home, '.claude', 'settings.json'), env, 'linux').found, true);
    assert.match(
      agentFound('opencode', path.join(home, '.config', 'opencode', 'plugin', 'agent-lens.js'), env, 'linux').why ?? '',
      /opencode exists$/,
    );
    assert.strictEqual(agentFound('hermes', path.join(home, '.hermes', 'plugins', 'agent-lens'), env, 'linux').found, false);
    // Copilot's hooks file goes into a hooks/ folder it makes only for hooks: ~/.copilot is what counts.
    const copilotFile = path.join(home, '.copilot', 'hooks', 'agent-lens.json');
    assert.strictEqual(agentFound('copilot', copilotFile, env, 'linux').found, false);
    fs.mkdirSync(path.join(home, '.copilot'));
    assert.match(agentFound('copilot', copilotFile, env, 'linux').why ?? '', /\.copilot exists$/);
  });

  it('on Windows, a command is found with an extension from PATHEXT', () => {
    const bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'claude.cmd'), '@echo off\n');
    assert.strictEqual(
      agentFound('claude-code', path.join(tmp, 'x', 'settings.json'), { PATH: bin, PATHEXT: '.EXE;.CMD' }, 'win32').found,
      true,
    );
  });
});
