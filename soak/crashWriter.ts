/**
 * The process soak/crash.ts kills with SIGKILL: it writes one kind of file through Agent Lens's own code, as
 * fast as it can, forever. `node dist/soak/crash-writer.js <kind> <dir>`; prints "ready" once it starts writing.
 */
import { writeAgentSection } from '../src/handoff/team/writeBack';
import { installInto, uninstallFrom } from '../src/integrations/install/settingsFile';
import {
  claudeEntries,
  type CrashKind,
  dispatcherFor,
  KINDS,
  settingsEnv,
  settingsFile,
  taskId,
  taskText,
  teamAgent,
  teamFile,
} from './crashFixtures';

async function boards(dir: string): Promise<never> {
  const { boards, dispatcher, paths } = dispatcherFor(dir);
  for (let n = 1; ; n++) {
    const id = taskId(n);
    const r = await dispatcher.dispatch({ agent: 'worker', taskId: id, brief: taskText(n) });
    if (!r.submitted) throw new Error(`dispatch ${id} was not submitted: ${r.error ?? r.refused}`);
    // The agent's report, as the doorbell hands it to the boards: status.json and events.jsonl.
    boards.receive({ id: `worker::${id}`, status: 'progress', summary: `halfway through ${id}`, report_path: null }, 'doorbell');
    boards.receive({ id: `worker::${id}`, status: 'done', summary: `finished ${id}`, report_path: paths.report('worker', id) }, 'doorbell');
  }
}

function team(dir: string): never {
  const worker = teamAgent('worker');
  for (let n = 1; ; n++) writeAgentSection(teamFile(dir), { ...worker, description: `version ${n}` });
}

function settings(dir: string): never {
  const entries = claudeEntries(dir);
  const env = settingsEnv(dir);
  for (;;) {
    installInto(settingsFile(dir), entries, { env });
    uninstallFrom(settingsFile(dir), { env });
  }
}

async function main(): Promise<void> {
  const [kind, dir] = process.argv.slice(2) as [CrashKind, string];
  if (!KINDS.includes(kind) || !dir) throw new Error(`usage: crash-writer <${KINDS.join('|')}> <dir>`);
  process.stdout.write('ready\n');
  if (kind === 'boards') await boards(dir);
  else if (kind === 'team') team(dir);
  else settings(dir);
}

main().catch((e: Error) => {
  process.stderr.write(`crash-writer: ${e.message}\n`);
  process.exit(3);
});
