#!/usr/bin/env node
// Records REAL plain-shell terminal sessions as asciinema v2 casts, used as
// negative fixtures (must never be classified as an agent, nor as "waiting").
//
// Usage: node scripts/record-negatives.mjs [name...]
//   With no names, records every scenario. Output: test/fixtures/negative/<name>.cast
//
// Each scenario spawns `bash --norc --noprofile -i` in a real PTY
// (@lydell/node-pty, 120x35, TERM=xterm-256color, PS1='$ ', isolated HOME
// and scratch working dir under /tmp), types commands like a human would
// (text, then "\r" as a separate write ~100 ms later), waits for the output to
// settle, and ends the session with `exit`. The session is negatives/session.mjs,
// the scenarios negatives/scenarios.mjs.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scenarios } from './negatives/scenarios.mjs';
import { Session, sleep } from './negatives/session.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, 'test', 'fixtures', 'negative');
const MAX_CAST_BYTES = 2 * 1024 * 1024;

// ---------------------------------------------------------------------------

async function record(name) {
  const fn = scenarios[name];
  const s = new Session(name);
  s.start();
  await s.waitFor(/\$ $/, { maxMs: 10000 }); // first prompt
  await sleep(400);
  try {
    await fn(s);
  } catch (err) {
    s.proc.kill();
    await s.exited;
    throw err;
  }
  await s.exit();
  const cast = s.toCast();
  if (Buffer.byteLength(cast) > MAX_CAST_BYTES) {
    process.stderr.write(`  [${name}] WARNING: cast is ${Buffer.byteLength(cast)} bytes (> 2 MB)\n`);
  }
  const file = path.join(OUT_DIR, `${name}.cast`);
  fs.writeFileSync(file, cast);
  const dur = s.exitAt ?? s.now();
  console.log(
    `${name}: ${path.relative(ROOT, file)} ${Buffer.byteLength(cast)} bytes, ${dur.toFixed(1)} s, ` +
      `${s.events.length} events, exit ${s.exitCode}`,
  );
}

async function main() {
  const names = process.argv.slice(2);
  const unknown = names.filter((n) => !(n in scenarios));
  if (unknown.length) {
    console.error(`unknown scenario(s): ${unknown.join(', ')}\navailable: ${Object.keys(scenarios).join(', ')}`);
    process.exit(2);
  }
  fs.mkdirSync(OUT_DIR, { recursive: true });
  let failed = 0;
  for (const name of names.length ? names : Object.keys(scenarios)) {
    try {
      await record(name);
    } catch (err) {
      if (String(err.message).startsWith('SKIP')) {
        console.error(`${name}: skipped (${err.message})`);
        continue;
      }
      failed++;
      console.error(`${name}: FAILED: ${err.message}`);
    }
  }
  process.exit(failed ? 1 : 0);
}

main();
