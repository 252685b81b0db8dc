import * as fs from 'fs';
import { procStatFields } from '../common/procStat';
import type { PeerVerdict } from '../hub/peer';
import type { AgentKind } from '../common/agents';
import { agentFromProcess } from '../detect/commandLine';

/**
 * Whether a held request may be offered for an answer, as the kernel tells it (Linux /proc), never as the request
 * says: the process on the other end of its connection runs the installed answering hook, its parent is the
 * agent (the hook command `exec`s down to it) as the process scan knows it by its command line, and that agent is
 * the foreground job of its terminal. Where this
 * cannot be checked, no button is offered: the dialog is answered in the terminal as before.
 */
export type Provenance = { ok: true; agentPid: number } | { ok: false; why: string };

export function checkProvenance(verdict: PeerVerdict, hookScript: string, agent: AgentKind, proc = '/proc'): Provenance {
  if (verdict.provenance !== 'verified') return { ok: false, why: `its sender could not be verified (${verdict.why})` };
  const { peer } = verdict;
  const argv = cmdline(proc, peer.pid);
  if (!argv) return { ok: false, why: 'its process could not be read' };
  if (argv[1] !== hookScript) return { ok: false, why: 'its process is not the installed answering hook' };
  const agentPid = peer.chain[0];
  if (agentPid === undefined) return { ok: false, why: 'its process has no parent' };
  const agentArgv = cmdline(proc, agentPid);
  const comm = readText(`${proc}/${agentPid}/comm`)?.trim();
  if (!agentArgv || comm === undefined || agentFromProcess(comm, agentArgv.slice(1))?.agent !== agent)
    return { ok: false, why: `its parent is not ${agent} (a program posing as its hook)` };
  const stat = readStat(proc, agentPid);
  if (!stat) return { ok: false, why: 'its agent process could not be read' };
  if (stat.tty === 0 || stat.pgrp !== stat.tpgid) return { ok: false, why: 'its agent is not the foreground job of a terminal' };
  return { ok: true, agentPid };
}

function cmdline(proc: string, pid: number): string[] | undefined {
  const text = readText(`${proc}/${pid}/cmdline`);
  return text === undefined ? undefined : text.replace(/\0$/, '').split('\0');
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function readStat(proc: string, pid: number): { pgrp: number; tty: number; tpgid: number } | undefined {
  try {
    const f = procStatFields(fs.readFileSync(`${proc}/${pid}/stat`, 'latin1'));
    const pgrp = f?.field(5);
    const tty = f?.field(7);
    const tpgid = f?.field(8);
    return [pgrp, tty, tpgid].every((n) => Number.isInteger(n)) ? { pgrp: pgrp!, tty: tty!, tpgid: tpgid! } : undefined;
  } catch {
    return undefined;
  }
}
