/**
 * Whether process `pid` exists: signal 0 checks without signalling. ESRCH: gone. EPERM: it runs as another
 * user, so it counts as running (a pid reused by any process passes too: callers that must know more check more).
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
