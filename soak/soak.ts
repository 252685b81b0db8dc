/**
 * `npm run soak` (issue 11 items 2–4): crash safety under SIGKILL, load, and linear time over growing sizes;
 * prints the figures and exits 1 when a crash or load run broke a property (linear time is printed, not judged). `--short` is the CI version;
 * `--only=crash,load` runs a part;
 * `--case=<regex> --sizes=256,1024` (KB) looks closer at some linear-time cases.
 */
import { benchLinear } from '../bench/linear';
import { runCrash } from './crash';
import { runLoad } from './load';

async function main(): Promise<void> {
  const short = process.argv.includes('--short');
  const seedArg = process.argv.find((a) => a.startsWith('--seed='));
  const seed = seedArg ? Number(seedArg.slice('--seed='.length)) : Date.now() % 2 ** 31;
  const onlyArg = process.argv.find((a) => a.startsWith('--only='));
  const only = onlyArg ? onlyArg.slice('--only='.length).split(',') : ['crash', 'load', 'linear'];
  const print = (l: string): void => console.log(l);
  console.log(`agent-lens soak${short ? ' --short' : ''} (${only.join(', ')})`);
  let failed = 0;
  if (only.includes('crash')) failed += (await runCrash(short ? 60 : 1200, print, seed)).failed;
  if (only.includes('load')) failed += (await runLoad({ seconds: short ? 10 : 60, terminals: 50, rate: 200, sessions: 50 }, print)).failed;
  // Printed, never asserted: a loaded machine only blurs timings (the engineering bar: no timed assertions).
  const caseArg = process.argv.find((a) => a.startsWith('--case='));
  const cases = caseArg ? new RegExp(caseArg.slice('--case='.length)) : undefined;
  const sizesArg = process.argv.find((a) => a.startsWith('--sizes='));
  const sizes = sizesArg
    ?.slice('--sizes='.length)
    .split(',')
    .map((k) => Number(k) * 1024);
  if (only.includes('linear')) await benchLinear(print, { maxBytes: short ? 256 * 1024 : 4096 * 1024, only: cases, sizes });
  console.log(failed === 0 ? 'soak: every property held' : 'soak: FAILED (see ✗ above)');
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((e: Error) => {
  console.error(`soak: ${e.stack ?? e.message}`);
  process.exit(2);
});
