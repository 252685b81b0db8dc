// Small /proc helpers (Linux only) for the E2E runner: find the VS Code
// extension host under a code-server process tree and sample its CPU time.
import { readFileSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/** Parse /proc/<pid>/stat. Returns undefined if the process is gone. */
export function readStat(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // comm (field 2) is in parentheses and may contain spaces or ')'.
  const close = text.lastIndexOf(')');
  const comm = text.slice(text.indexOf('(') + 1, close);
  const rest = text.slice(close + 2).split(' ');
  // rest[0] is field 3 (state); field N is rest[N - 3].
  return {
    pid: Number(pid),
    comm,
    state: rest[0],
    ppid: Number(rest[1]),
    pgrp: Number(rest[2]),
    utimeTicks: Number(rest[11]),
    stimeTicks: Number(rest[12]),
    startTimeTicks: Number(rest[19]),
    rssPages: Number(rest[21]),
  };
}

/** Command line of a process as an array of arguments ([] if unreadable). */
export function readCmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

function allPids() {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

/** All descendants of rootPid (children, grandchildren...), breadth first. */
export function listDescendants(rootPid) {
  const children = new Map();
  for (const pid of allPids()) {
    const st = readStat(pid);
    if (!st) continue;
    if (!children.has(st.ppid)) children.set(st.ppid, []);
    children.get(st.ppid).push(pid);
  }
  const out = [];
  const queue = [Number(rootPid)];
  while (queue.length) {
    const p = queue.shift();
    for (const c of (children.get(p) || []).sort((a, b) => a - b)) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

/**
 * Pid of the extension host started (directly or indirectly) by rootPid, e.g.
 * code-server: `node .../lib/vscode/out/bootstrap-fork --type=extensionHost`.
 * Returns undefined when there is none (yet). If several exist (several
 * windows), the oldest is returned; see findExtensionHostPids for all.
 */
export function findExtensionHostPid(rootPid) {
  return findExtensionHostPids(rootPid)[0];
}

export function findExtensionHostPids(rootPid) {
  return listDescendants(rootPid)
    .filter((pid) => readCmdline(pid).some((a) => a === '--type=extensionHost' || a === '--type=extensionhost'))
    .map((pid) => ({ pid, start: readStat(pid)?.startTimeTicks ?? 0 }))
    .sort((a, b) => a.start - b.start)
    .map((x) => x.pid);
}

let clkTck;
/** Kernel clock ticks per second (USER_HZ), usually 100. */
export function clockTicksPerSecond() {
  if (clkTck === undefined) {
    try {
      clkTck = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clkTck = 100;
    }
  }
  return clkTck;
}

/** User+system CPU time consumed so far by pid, in milliseconds. */
export function cpuTimeMs(pid) {
  const st = readStat(pid);
  if (!st) return undefined;
  return ((st.utimeTicks + st.stimeTicks) * 1000) / clockTicksPerSecond();
}

/**
 * Measure CPU use of pid over a window: resolves with
 * {cpuMs, wallMs, percent} (percent of one core).
 */
export async function sampleCpu(pid, windowMs) {
  const c0 = cpuTimeMs(pid);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, windowMs));
  const c1 = cpuTimeMs(pid);
  const wallMs = performance.now() - t0;
  if (c0 === undefined || c1 === undefined) return undefined;
  return { cpuMs: c1 - c0, wallMs, percent: ((c1 - c0) / wallMs) * 100 };
}
