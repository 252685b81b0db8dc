// mocha --require test/platform/force.cjs with AGENT_LENS_TEST_PLATFORM=darwin|win32: every reader, hook command
// and path the product picks by platform (src/common/platform.ts) sees that platform for the whole unit run.
const p = process.env.AGENT_LENS_TEST_PLATFORM;
if (p) {
  if (!['linux', 'darwin', 'win32'].includes(p)) throw new Error(`AGENT_LENS_TEST_PLATFORM=${p}: use linux, darwin or win32`);
  globalThis[Symbol.for('agent-lens.platform')] = p;
  // Windows keeps the temp folder inside the user's profile (%LOCALAPPDATA%\Temp); so does the forced run, so the
  // suite's temporary homes pass the check Windows gives <home>\bin and the discovery file (src/common/userProfile.ts).
  if (p === 'win32' && !process.env.USERPROFILE) process.env.USERPROFILE = require('os').tmpdir();
  console.log(`unit suite with the platform forced to ${p} (src/common/platform.ts)`);
}
