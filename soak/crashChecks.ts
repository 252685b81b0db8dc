/**
 * What a killed writer may leave (the old or the new version of every file, never torn or empty) and what a
 * restart must make of it (seed 002 §7.5: boards reset; the installer and the registry carry on), per kind.
 * Each check returns the problems it found; none means the run passed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { BOARD_STATES } from '../src/handoff/board';
import { parseTeam } from '../src/handoff/team/registry';
import { writeAgentSection } from '../src/handoff/team/writeBack';
import { addHooks } from '../src/integrations/install/jsonHooks';
import { backupPath, installInto, recordPath, uninstallFrom } from '../src/integrations/install/settingsFile';
import {
  claudeEntries,
  type CrashKind,
  dispatcherFor,
  expectedBrief,
  SETTINGS_TEXT,
  settingsEnv,
  settingsFile,
  TEAM_TEXT,
  taskText,
  teamAgent,
  teamFile,
} from './crashFixtures';

const MEMORY = '# Memory of worker\n\nNotes the agent keeps between tasks.\n';
const BOARD_KEYS = [
  'agent',
  'state',
  'task_id',
  'last_event',
  'progress',
  'error_reason',
  'error_point',
  'report_path',
  'brief_path',
  'delivery',
  'delivered_to',
  'updated_at',
];

/** Every temp file writeFileAtomic left under `dir` (a kill between open and rename). */
export function tempsUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.startsWith('.') && e.name.endsWith('.tmp')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

function read(file: string): string | undefined {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
}

function boardProblems(file: string, wantIdle = false): string[] {
  const text = read(file);
  if (text === undefined) return wantIdle ? ['status.json is missing after the restart'] : [];
  let b: Record<string, unknown>;
  try {
    b = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return [`status.json is torn or empty (${text.length} bytes)`];
  }
  const p: string[] = [];
  if (JSON.stringify(Object.keys(b).sort()) !== JSON.stringify([...BOARD_KEYS].sort()))
    p.push(`status.json has keys ${Object.keys(b).join(',')}`);
  if (b.agent !== 'worker' || !BOARD_STATES.includes(b.state as never))
    p.push(`status.json is not a board of worker: ${text.slice(0, 80)}`);
  if (wantIdle && (b.state !== 'idle' || b.task_id !== null))
    p.push(`after the restart the board is ${String(b.state)} with task ${String(b.task_id)}, not idle`);
  return p;
}

function briefNumbers(dir: string): number[] {
  const briefs = path.join(dir, 'worker', 'briefs');
  if (!fs.existsSync(briefs)) return [];
  return fs
    .readdirSync(briefs)
    .filter((f) => /^t\d+-brief\.md$/.test(f))
    .map((f) => Number(/\d+/.exec(f)![0]));
}

function briefProblems(dir: string): string[] {
  const p: string[] = [];
  for (const n of briefNumbers(dir)) {
    const got = read(path.join(dir, 'worker', 'briefs', `t${n}-brief.md`));
    if (got !== expectedBrief(dir, n)) p.push(`brief t${n} is not the brief dispatch wrote (${got?.length ?? 0} bytes)`);
  }
  return p;
}

function eventProblems(dir: string): string[] {
  const text = read(path.join(dir, 'worker', 'events.jsonl'));
  if (!text) return [];
  const p: string[] = [];
  if (!text.endsWith('\n')) p.push('events.jsonl ends in a torn line');
  for (const [i, line] of text.split('\n').slice(0, -1).entries()) {
    try {
      JSON.parse(line);
    } catch {
      p.push(`events.jsonl line ${i + 1} is not JSON`);
    }
  }
  return p;
}

async function boards(dir: string): Promise<{ left: string[]; restart: string[] }> {
  const agentDir = path.join(dir, 'worker');
  const memory = read(path.join(agentDir, 'memory.md'));
  const readMd = read(path.join(agentDir, 'read.md'));
  const left = [...boardProblems(path.join(agentDir, 'status.json')), ...briefProblems(dir), ...eventProblems(dir)];
  if (memory !== undefined && memory !== MEMORY) left.push('memory.md is torn');
  const restart: string[] = [];
  const run = dispatcherFor(dir);
  // Killed before its folder existed, the agent has no board on disk to reset.
  const hadFolder = fs.existsSync(agentDir);
  run.boards.resetAll(['worker']);
  if (hadFolder) restart.push(...boardProblems(path.join(agentDir, 'status.json'), true));
  const n = Math.max(0, ...briefNumbers(dir)) + 1;
  const r = await run.dispatcher.dispatch({ agent: 'worker', taskId: `t${n}`, brief: taskText(n) });
  if (!r.submitted || !r.delivered) restart.push(`dispatch after the restart: ${r.error ?? r.refused ?? 'not delivered'}`);
  restart.push(...briefProblems(dir));
  const readMdAfter = read(path.join(agentDir, 'read.md'));
  if (readMd !== undefined && readMd !== readMdAfter) left.push('read.md was torn (it differs from the one written after the restart)');
  return { left, restart };
}

/** The version number in a team.toml that is exactly the user's file with one [worker] written, else undefined. */
function teamVersion(text: string): string | undefined {
  const m = /description = "version (\d+)"/.exec(text);
  return m && TEAM_TEXT.replace('version 0', `version ${m[1]}`) === text ? m[1] : undefined;
}

function team(dir: string): { left: string[]; restart: string[] } {
  const file = teamFile(dir);
  const text = read(file);
  const left: string[] = [];
  if (text === undefined) left.push('team.toml is gone');
  else if (teamVersion(text) === undefined) left.push(`team.toml is neither the old nor a new version (${text.length} bytes)`);
  const restart: string[] = [];
  try {
    parseTeam(read(file) ?? '', file);
    writeAgentSection(file, { ...teamAgent('worker'), description: 'after the restart' });
    if (read(file) !== TEAM_TEXT.replace('version 0', 'after the restart'))
      restart.push('team.toml after the restart is not the user file with the new [worker]');
  } catch (e) {
    restart.push(`team.toml after the restart: ${(e as Error).message}`);
  }
  return { left, restart };
}

function settings(dir: string): { left: string[]; restart: string[] } {
  const file = settingsFile(dir);
  const entries = claudeEntries(dir);
  const env = settingsEnv(dir);
  const installed = addHooks(SETTINGS_TEXT, entries, file);
  const text = read(file);
  const left: string[] = [];
  if (text !== SETTINGS_TEXT && text !== installed)
    left.push(`settings.json is neither the user's file nor it with our hooks (${text?.length ?? 'no'} bytes)`);
  const restart: string[] = [];
  try {
    uninstallFrom(file, { env });
    if (read(file) !== SETTINGS_TEXT) restart.push("uninstall after the restart did not give back the user's exact bytes");
    installInto(file, entries, { env });
    if (read(file) !== installed) restart.push('install after the restart did not write the hooks');
    uninstallFrom(file, { env });
    if (read(file) !== SETTINGS_TEXT) restart.push("install + uninstall after the restart did not give back the user's exact bytes");
    if (fs.existsSync(backupPath(file)) || fs.existsSync(recordPath(file, env)))
      restart.push('uninstall left its backup or install record behind');
  } catch (e) {
    restart.push(`settings after the restart: ${(e as Error).message}`);
  }
  return { left, restart };
}

/** The problems a killed writer of `kind` left in `dir`, and those of the restart that follows. */
export async function checkCrash(kind: CrashKind, dir: string): Promise<{ left: string[]; restart: string[] }> {
  const r = kind === 'boards' ? await boards(dir) : kind === 'team' ? team(dir) : settings(dir);
  const temps = tempsUnder(dir);
  if (temps.length) r.restart.push(`temp files outlived the restart's writes: ${temps.map((t) => path.relative(dir, t)).join(', ')}`);
  return r;
}
