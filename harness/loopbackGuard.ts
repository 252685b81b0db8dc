/**
 * The harness's loopback guard: every socket a run's processes hold, and every connect() an strace saw, is
 * checked, and a destination off loopback is reported as a problem of the recording.
 */
import * as fs from 'node:fs';
import { findRunProcesses } from './homeBase';

/** Sample the sockets of the run's processes; remote endpoints that are not loopback are reported. */
export function sampleRemoteEndpoints(runId: string, seen: Set<string>): void {
  const inodes = new Set<string>();
  for (const pid of findRunProcesses(runId)) {
    try {
      for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
        try {
          const l = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
          const m = /^socket:\[(\d+)\]$/.exec(l);
          if (m) inodes.add(m[1]!);
        } catch {
          /* raced */
        }
      }
    } catch {
      /* gone */
    }
  }
  if (!inodes.size) return;
  for (const f of ['tcp', 'tcp6', 'udp', 'udp6']) {
    let txt = '';
    try {
      txt = fs.readFileSync(`/proc/net/${f}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of txt.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || !inodes.has(cols[9]!)) continue;
      const rem = cols[2]!;
      const [hexIp, hexPort] = rem.split(':') as [string, string];
      const port = parseInt(hexPort, 16);
      if (port === 0) continue; // listening / unconnected
      const ip = decodeIp(hexIp);
      if (/^127\.|^::1$|^::ffff:127\./.test(ip)) continue;
      seen.add(`${f} ${ip}:${port}`);
    }
  }
}

function decodeIp(hex: string): string {
  if (hex.length === 8) {
    const b = Buffer.from(hex, 'hex');
    return [b[3], b[2], b[1], b[0]].join('.');
  }
  const words: string[] = [];
  for (let i = 0; i < 32; i += 8) {
    const b = Buffer.from(hex.slice(i, i + 8), 'hex');
    words.push(Buffer.from([b[3]!, b[2]!, b[1]!, b[0]!]).toString('hex'));
  }
  const full = words.join('');
  if (full.startsWith('00000000000000000000ffff'))
    return `::ffff:${decodeIp(Buffer.from(full.slice(24), 'hex').reverse().toString('hex'))}`;
  if (full === '00000000000000000000000000000001') return '::1';
  return full.replace(/(.{4})/g, '$1:').slice(0, -1);
}

/** Non-loopback destinations of connect() calls in an strace log (AF_INET / AF_INET6). */
export function nonLoopbackConnects(file: string): string[] {
  let txt = '';
  try {
    txt = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const line of txt.split('\n')) {
    if (!line.includes('connect(')) continue;
    const v4 = /sin_port=htons\((\d+)\), sin_addr=inet_addr\("([\d.]+)"\)/.exec(line);
    const v6 = /sin6_port=htons\((\d+)\).*inet_pton\(AF_INET6, "([^"]+)"/.exec(line);
    const m = v4 ?? v6;
    if (!m) continue;
    const ip = m[2]!;
    if (/^127\.|^::1$|^::ffff:127\.|^0\.0\.0\.0$|^::$/.test(ip)) continue;
    out.add(`${ip}:${m[1]}`);
  }
  return [...out];
}
