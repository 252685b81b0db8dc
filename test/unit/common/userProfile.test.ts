import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { unsafeDirReason } from '../../../src/common/fsutil';
import { outsideProfileReason, privateRoots } from '../../../src/common/userProfile';
import { discoveryFolder, writeDiscovery } from '../../../src/hub/discovery';

const PROFILE = 'C:\\Users\\张三';
const env = { USERPROFILE: PROFILE, LOCALAPPDATA: `${PROFILE}\\AppData\\Local`, APPDATA: '\\\\srv\\redirected$\\张三\\AppData\\Roaming' };
const same = (p: string) => p;

describe("Windows: a private folder is one inside the user's profile (src/common/userProfile.ts)", () => {
  it('takes the profile and the AppData folders, absolute ones only', () => {
    assert.deepStrictEqual(privateRoots(env), [PROFILE, `${PROFILE}\\AppData\\Local`, '\\\\srv\\redirected$\\张三\\AppData\\Roaming']);
    assert.deepStrictEqual(privateRoots({ USERPROFILE: PROFILE, APPDATA: 'relative\\x' }), [PROFILE]);
  });

  it('accepts the profile and what is below it, in any spelling', () => {
    for (const dir of [PROFILE, `${PROFILE}\\.agent-lens\\bin`, 'c:/users/张三/.agent-lens/hubs', `${PROFILE}\\My Project\\.agent-lens`])
      assert.strictEqual(outsideProfileReason(dir, env, same), undefined, dir);
    assert.strictEqual(outsideProfileReason('\\\\SRV\\redirected$\\张三\\AppData\\Roaming\\x', env, same), undefined, 'redirected AppData');
  });

  it('refuses a folder elsewhere, and says where to put it', () => {
    for (const dir of [
      'C:\\agent-lens',
      'D:\\Users\\张三\\.agent-lens',
      'C:\\Users\\张三四\\.agent-lens',
      `${PROFILE}\\..\\Public\\x`,
      'C:\\Temp\\al',
    ]) {
      const why = outsideProfileReason(dir, env, same);
      assert.ok(why, dir);
      assert.match(why, /outside your user profile C:\\Users\\张三/);
      assert.match(why, /set AGENT_LENS_HOME to a folder under C:\\Users\\张三/);
    }
  });

  it('refuses a folder whose name is inside but which a junction puts outside', () => {
    const realpath = (p: string) => (p.startsWith(`${PROFILE}\\link`) ? p.replace(`${PROFILE}\\link`, 'D:\\shared') : p);
    const why = outsideProfileReason(`${PROFILE}\\link\\.agent-lens`, env, realpath);
    assert.match(why ?? '', /really D:\\shared\\\.agent-lens/);
    assert.strictEqual(outsideProfileReason(`${PROFILE}\\.agent-lens`, env, realpath), undefined);
  });
});

describe('unsafeDirReason and the discovery file with the platform read as Windows (real folders here)', () => {
  let tmp: string;
  let saved: string | undefined;
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'al-profile-')));
    saved = process.env.USERPROFILE;
    process.env.USERPROFILE = path.join(tmp, 'profile');
    fs.mkdirSync(process.env.USERPROFILE);
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.USERPROFILE;
    else process.env.USERPROFILE = saved;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a folder in the profile passes whatever its mode; outside it, or a link, is refused', () => {
    const inside = path.join(tmp, 'profile', '.agent-lens', 'bin');
    fs.mkdirSync(inside, { recursive: true, mode: 0o777 });
    fs.chmodSync(inside, 0o777);
    assert.strictEqual(unsafeDirReason(inside, 'win32'), undefined, 'no mode bits on Windows: the ACL comes from the profile');
    const outside = path.join(tmp, 'elsewhere');
    fs.mkdirSync(outside);
    assert.match(unsafeDirReason(outside, 'win32') ?? '', /outside your user profile/);
    const link = path.join(tmp, 'profile', 'link');
    fs.symlinkSync(outside, link);
    assert.match(unsafeDirReason(link, 'win32') ?? '', /is not a folder \(a symlink\)/);
    assert.match(unsafeDirReason(path.join(link, 'x'), 'win32') ?? '', /ENOENT/);
    fs.mkdirSync(path.join(outside, 'sub'));
    assert.match(unsafeDirReason(path.join(link, 'sub'), 'win32') ?? '', /really .*elsewhere/, 'a link higher up leads outside');
  });

  it('the discovery file: written in the profile, refused outside it before anything is written', () => {
    const good = path.join(tmp, 'profile', '.agent-lens', 'hubs', 'w.json');
    writeDiscovery(good, { v: 1, port: 1, token: 't', pid: process.pid }, 'win32');
    assert.ok(fs.existsSync(good));
    const bad = path.join(tmp, 'shared', 'hubs', 'w.json');
    assert.throws(
      () => discoveryFolder(bad, 'win32'),
      /refusing to write the hub's discovery file, which holds its token: .*outside your user profile/,
    );
    assert.throws(() => writeDiscovery(bad, { v: 1, port: 1, token: 't', pid: process.pid }, 'win32'), /outside your user profile/);
    assert.ok(!fs.existsSync(bad), 'no token written there');
    assert.strictEqual(discoveryFolder(bad, 'linux'), path.dirname(bad), 'elsewhere its own 0600 keeps the token');
  });
});
