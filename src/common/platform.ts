/**
 * The platform the process readers, hook commands and paths are written for: `process.platform`, unless the unit
 * suite forced another. CI runs the whole unit suite once per platform (`test/platform/force.cjs`), so the macOS
 * and Windows readers run on Linux against their recorded outputs. A global symbol, not a module variable: each
 * test file is its own bundle with its own copy of this module. Node's own `process.platform` is left alone, so
 * child processes, `path` and `child_process` still behave as on the real host.
 */
const FORCED = Symbol.for('agent-lens.platform');

const KNOWN: readonly NodeJS.Platform[] = ['linux', 'darwin', 'win32', 'freebsd', 'openbsd', 'sunos', 'aix'];

export function hostPlatform(): NodeJS.Platform {
  const forced = (globalThis as Record<symbol, unknown>)[FORCED];
  return typeof forced === 'string' && (KNOWN as readonly string[]).includes(forced) ? (forced as NodeJS.Platform) : process.platform;
}

/** Whether the readers see Linux (what the suite's real-process tests need: /proc, real ttys). */
export function onLinux(): boolean {
  return hostPlatform() === 'linux';
}
