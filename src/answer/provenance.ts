import * as fs from 'fs';
import { inOpenCodeFamily } from '../agents/opencode/family';
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
  return foregroundAgent(proc, agentPid, agent, `its parent is not ${agent} (a program posing as its hook)`);
}

/**
 * A plugin runs inside its agent (OpenCode, Kilo): the process holding the connection must itself be the agent, by its
 * command line, and the foreground job of its terminal.
 */
export function checkInProcess(verdict: PeerVerdict, agent: AgentKind, proc = '/proc'): Provenance {
  if (verdict.provenance !== 'verified') return { ok: false, why: `its sender could not be verified (${verdict.why})` };
  return foregroundAgent(proc, verdict.peer.pid, agent, `its process is not ${agent} (a program posing as its plugin)`);
}

/** The check for each agent whose dialogs can be answered from VS Code; any other agent is refused. */
export function provenanceFor(hookScript: string, proc = '/proc'): (verdict: PeerVerdict, agent: AgentKind) => Provenance {
  return (verdict, agent) =>
    agent === 'claude-code'
      ? checkProvenance(verdict, hookScript, agent, proc)
      : inOpenCodeFamily(agent)
        ? checkInProcess(verdict, agent, proc)
        : { ok: false, why: `${agent}'s dialogs are not answered from VS Code` };
}

/** `pid` is an `agent` process (by its command line) and the foreground job of a terminal. */
function foregroundAgent(proc: string, pid: number, agent: AgentKind, notAgent: string): Provenance {
  const argv = cmdline(proc, pid);
  const comm = readText(`${proc}/${pid}/comm`)?.trim();
  if (!argv || comm === undefined || agentFromProcess(comm, argv.slice(1))?.agent !== agent) return { ok: false, why: notAgent };
  const stat = readStat(proc, pid);
  if (!stat) return { ok: false, why: 'its agent process could not be read' };
  if (stat.tty === 0 || stat.pgrp !== stat.tpgid) return { ok: false, why: 'its agent is not the foreground job of a terminal' };
  return { ok: true, agentPid: pid };
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
