/** Generic standalone mock: `node mock.js --protocol anthropic|responses|chat --script <file.json> …` (see ./cli.ts). */
import { mockCliMain } from './cli';

mockCliMain(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`${String((e as Error).stack ?? e)}\n`);
  process.exit(2);
});
