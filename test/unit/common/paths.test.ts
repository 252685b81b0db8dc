import * as assert from 'assert';
import * as path from 'path';
import { isPathInside, isWindowsDeviceName, pathKey, platformPath, samePath } from '../../../src/common/paths';
import { hostPlatform } from '../../../src/common/platform';
import { chooseTerminal, type TerminalCandidate } from '../../../src/store/binder';

describe('paths as text, by the platform that wrote them (src/common/paths.ts)', () => {
  it('Windows: drive letters and names in any case, either separator, long-path and UNC prefixes, spaces, non-ASCII', () => {
    const same = (a: string, b: string) => samePath(a, b, 'win32');
    assert.ok(same('C:\\Users\\张三\\My Project', 'c:/users/张三/my project/'), "Node's cwd and VS Code's fsPath");
    assert.ok(same('\\\\?\\C:\\Users\\张三\\My Project', 'C:\\Users\\张三\\My Project'), "Rust's canonicalize");
    assert.ok(same('\\\\srv\\share\\a', '\\\\SRV\\Share\\a\\'));
    assert.ok(same('\\\\?\\UNC\\srv\\share\\a', '\\\\srv\\share\\a'));
    assert.ok(same('C:\\a\\.\\b\\..\\c', 'C:\\a\\c'));
    assert.ok(same('C:\\', 'c:/'), 'a root keeps its separator');
    assert.ok(!same('C:\\a', 'D:\\a'));
    assert.ok(!same('C:\\Users\\张三\\My Project', 'C:\\Users\\张三\\MyProject'));
    assert.ok(!same('\\\\srv\\share\\a', '\\\\srv\\other\\a'));
    assert.strictEqual(pathKey('C:\\Users\\X\\', 'win32'), 'c:\\users\\x');
  });

  it('POSIX: case matters, trailing slashes and dot segments do not', () => {
    assert.ok(samePath('/home/u/proj/', '/home/u/./proj', 'linux'));
    assert.ok(!samePath('/home/u/Proj', '/home/u/proj', 'linux'));
    assert.ok(samePath('/', '//', 'darwin'));
    assert.strictEqual(pathKey('/a/b//', 'linux'), '/a/b');
  });

  it('inside: by whole names, never by a shared prefix', () => {
    assert.ok(isPathInside('C:\\Users\\张三', 'c:\\users\\张三\\.agent-lens\\bin', 'win32'));
    assert.ok(isPathInside('C:\\Users\\张三', 'C:/Users/张三', 'win32'));
    assert.ok(!isPathInside('C:\\Users\\张三', 'C:/Users/张三', 'win32', true), 'strict: below only');
    assert.ok(!isPathInside('C:\\Users\\张三', 'C:\\Users\\张三四\\x', 'win32'));
    assert.ok(!isPathInside('C:\\Users\\张三', 'C:\\Users\\张三\\..\\李四', 'win32'));
    assert.ok(!isPathInside('C:\\Users\\张三', 'D:\\Users\\张三\\x', 'win32'));
    assert.ok(isPathInside('C:\\', 'C:\\x', 'win32'));
    assert.ok(isPathInside('\\\\srv\\home$\\张三', '\\\\SRV\\home$\\张三\\AppData', 'win32'));
    assert.ok(isPathInside('/home/u', '/home/u/x', 'linux'));
    assert.ok(!isPathInside('/home/u', '/home/U/x', 'linux'));
    assert.ok(!isPathInside('/home/u', '/home/uv', 'linux'));
  });

  it('picks path.win32 or path.posix by the platform (the forced one by default)', () => {
    assert.strictEqual(platformPath('win32'), path.win32);
    assert.strictEqual(platformPath('darwin'), path.posix);
    assert.strictEqual(platformPath(), hostPlatform() === 'win32' ? path.win32 : path.posix);
  });

  it("knows Windows' device names, which every folder has", () => {
    for (const n of ['CON', 'con.md', 'Nul.txt', 'NUL.tar.gz', 'COM1', 'lpt9', 'LPT¹', 'aux  ']) assert.ok(isWindowsDeviceName(n), n);
    for (const n of ['console', 'com0', 'com10', 'nully.md', 'con-x', 'report.md', 'x'.repeat(100)]) assert.ok(!isWindowsDeviceName(n), n);
  });
});

describe('the binder compares folders by the platform: a log and a terminal written by different programs', () => {
  const terminal = (cwd: string): TerminalCandidate => ({
    terminalId: 'T',
    agent: 'claude-code',
    cwd,
    alive: true,
    startedAt: 1000,
    turnStarts: [5000],
  });
  it(`links "C:\\x" (the log) to "c:\\x" (VS Code's fsPath) only on Windows (now: ${hostPlatform()})`, () => {
    const log = { agent: 'claude-code' as const, cwd: 'C:\\Users\\张三\\My Project', turnStarts: [5200], lastSeen: 6000 };
    const r = chooseTerminal(log, [terminal('c:\\Users\\张三\\My Project\\')]);
    if (hostPlatform() === 'win32') assert.strictEqual(r.terminalId, 'T', r.why);
    else assert.strictEqual(r.terminalId, undefined, 'on POSIX those are two folders');
    const posix = chooseTerminal({ ...log, cwd: '/home/u/p' }, [terminal('/home/u/p/')]);
    assert.strictEqual(posix.terminalId, 'T', 'a trailing slash is no other folder anywhere');
  });
});
