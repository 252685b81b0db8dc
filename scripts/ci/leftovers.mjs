#!/usr/bin/env node
// Lists the processes a CI run left behind and fails when there are any: every test ends what it started
// (agents, their daemons, tmux servers, code-server, Chromium, mocks). A process counts when it started after
// the time given (the run's start, seconds since the epoch) and is neither this script nor one of its ancestors.
//
//   node scripts/ci/leftovers.mjs --since <epoch seconds> [--kill]
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { since: { type: 'string' }, kill: { type: 'boolean', default: false } } });
const since = Number(values.since);
if (!Number.isFinite(since)) {
  console.error('usage: leftovers.mjs --since <epoch seconds> [--kill]');
  process.exit(2);
}

const clockTicks = 100; // USER_HZ on Linux
const bootTime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))[1]);

function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(rest[1]), state: rest[0], started: bootTime + Number(rest[19]) / clockTicks };
  } catch {
    return undefined;
  }
}

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ').slice(0, 200);
  } catch {
    return '';
  }
}

const mine = new Set();
for (let p = process.pid; p > 1;) {
  mine.add(p);
  const s = stat(p);
  if (!s) break;
  p = s.ppid;
}

const left = [];
for (const name of readdirSync('/proc')) {
  if (!/^\d+$/.test(name)) continue;
  const pid = Number(name);
  const s = stat(pid);
  if (!s || mine.has(pid) || s.state === 'Z' || s.started < since) continue;
  left.push({ pid, ppid: s.ppid, cmd: cmdline(pid) });
}
// Kernel threads have no command line; they are not a run's.
const real = left.filter((p) => p.cmd);
if (!real.length) {
  console.log('leftover processes: none');
  process.exit(0);
}
console.log(`leftover processes: ${real.length}`);
for (const p of real) console.log(`  pid ${p.pid} (parent ${p.ppid}): ${p.cmd}`);
if (values.kill)
  for (const p of real)
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
process.exit(1);
