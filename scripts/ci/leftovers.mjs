#!/usr/bin/env node
// Lists the processes a CI run left behind and fails when there are any: every test ends what it started
// (agents, their daemons, tmux servers, code-server, Chromium, mocks). A process counts when it started after
// the time given (the run's start, seconds since the epoch), is neither this script nor one of its ancestors, and
// belongs to the run: going up its parents, the first one older than the run is init (where an orphan lands) or
// an ancestor of this script. Processes under another long-lived program (someone's shell, a tool's daemon on a
// shared machine) started meanwhile are not the run's.
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

/** Whether `pid` was started by this run (directly, or orphaned by it). */
function ofThisRun(pid) {
  let p = stat(pid)?.ppid;
  for (let i = 0; i < 64 && p !== undefined; i++) {
    if (p <= 1 || mine.has(p)) return true;
    const s = stat(p);
    if (!s) return true;
    if (s.started < since) return false;
    p = s.ppid;
  }
  return true;
}

const left = [];
for (const name of readdirSync('/proc')) {
  if (!/^\d+$/.test(name)) continue;
  const pid = Number(name);
  const s = stat(pid);
  if (!s || mine.has(pid) || s.state === 'Z' || s.started < since || !ofThisRun(pid)) continue;
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
