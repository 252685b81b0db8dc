/**
 * `npm run soak` (issue 11 items 2–4): crash safety under SIGKILL, load, and linear time over growing sizes;
 * prints the figures and exits 1 when a crash or load run broke a property. `--short` is the CI version.
 */
import { runCrash } from './crash';

async function main(): Promise<void> {
  const short = process.argv.includes('--short');
  const seedArg = process.argv.find((a) => a.startsWith('--seed='));
  const seed = seedArg ? Number(seedArg.slice('--seed='.length)) : Date.now() % 2 ** 31;
  const print = (l: string): void => console.log(l);
  console.log(`agent-lens soak${short ? ' --short' : ''}`);
  const crash = await runCrash(short ? 60 : 1200, print, seed);
  const ok = crash.failed === 0;
  console.log(ok ? 'soak: every property held' : 'soak: FAILED (see ✗ above)');
  process.exit(ok ? 0 : 1);
}

main().catch((e: Error) => {
  console.error(`soak: ${e.stack ?? e.message}`);
  process.exit(2);
});
