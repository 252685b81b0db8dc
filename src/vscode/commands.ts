import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { writeFileAtomic } from '../common/fsutil';
import { jsonLine, printable } from '../common/printable';
import { CastError, parseCast } from '../formats/cast';
import { replayCast } from '../replay/replay';
import type { TerminalState } from '../store/types';
import { replayFailedNotice, savedNotice, writeFailedNotice } from '../views/messages';
import { historyLines, pickItems, type ViewInput } from '../views/model';
import { type RowOrId, terminalIdOf } from './commandArgs';
import type { TerminalAdapter } from './terminals';
import * as ui from './ui';
import { isAgent } from '../common/agents';
import type { Handlers } from './commandTable';

/** What the terminal commands work with. */
interface Ctx {
  input: () => ViewInput;
  terminals: TerminalAdapter;
  log: vscode.LogOutputChannel;
}

/** Show, focus, history, record and replay: the commands about terminals. */
export function terminalHandlers(input: () => ViewInput, terminals: TerminalAdapter, log: vscode.LogOutputChannel): Handlers {
  const c: Ctx = { input, terminals, log };
  return {
    showTerminal: (arg?: RowOrId) => show(c, terminalIdOf(arg)),
    focusTerminal: () => focusTerminal(c),
    showHistory: () => showHistory(c),
    // Arguments (terminal id, target path) let scripts and tests record without the dialogs.
    recordTerminal: (arg?: RowOrId, targetPath?: string) => recordTerminal(c, terminalIdOf(arg), targetPath),
    replayRecording: (uri?: vscode.Uri) => replayRecording(uri),
  };
}

/** Brings a terminal forward; nothing chosen (Escape in a picker) is no error, a terminal that closed is. */
function show(c: Ctx, id: string | undefined): void {
  if (id === undefined) return;
  const t = c.terminals.terminalOf(id);
  if (!t) return void ui.warn(vscode.l10n.t('Agent Lens: that terminal is gone.'));
  t.show(false);
}

async function pickTerminal(c: Ctx, placeHolder: string, filter: (t: TerminalState) => boolean = () => true): Promise<string | undefined> {
  const items = pickItems(c.input(), filter);
  if (items.length === 0) return undefined;
  return (await ui.pick(items, { placeHolder, matchOnDescription: true }))?.terminalId;
}

async function focusTerminal(c: Ctx): Promise<void> {
  if (!c.input().terminals.some(isAgent)) return void ui.info(vscode.l10n.t('Agent Lens: no terminal runs an agent right now.'));
  show(c, await pickTerminal(c, vscode.l10n.t('Agent terminals, most urgent first'), isAgent));
}

function showHistory(c: Ctx): void {
  c.log.info('— state history —');
  for (const line of historyLines(c.input())) c.log.info(line);
  c.log.show(true);
}

/** The terminal to record: the one given or active if it has a recording, else picked among those that have one. */
async function recordingTerminal(c: Ctx, given: string | undefined): Promise<string | undefined> {
  const activeId = vscode.window.activeTerminal ? c.terminals.idOf(vscode.window.activeTerminal) : undefined;
  const withRecording = (id: string) => (c.terminals.session(id)?.recording()?.length ?? 0) > 0;
  if (given) return withRecording(given) ? given : activeId && withRecording(activeId) ? activeId : undefined;
  if (activeId && withRecording(activeId)) return activeId;
  return pickTerminal(c, vscode.l10n.t('Which terminal’s stream to save as .cast?'), (t) => withRecording(t.id));
}

async function recordTerminal(c: Ctx, terminalId: string | undefined, targetPath?: string): Promise<string | undefined> {
  const id = await recordingTerminal(c, terminalId);
  if (!id) {
    void ui.info(
      vscode.l10n.t(
        'Agent Lens: nothing recorded yet. Agent Lens records the output of commands it reads (agents); start one, then record.',
      ),
    );
    return undefined;
  }
  const rec = c.terminals.session(id)!.recording()!;
  const name = c.input().terminals.find((t) => t.id === id)?.name ?? id;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = targetPath
    ? vscode.Uri.file(targetPath)
    : await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.file(path.join(folder, `agent-lens-${name.replace(/[^\w.-]+/g, '_')}-${stamp}.cast`)),
        filters: { [vscode.l10n.t('asciinema recording')]: ['cast'] },
      });
  if (!target) return undefined;
  try {
    writeFileAtomic(target.fsPath, rec.toCast(`Agent Lens: ${name}`));
    void ui.info(savedNotice(path.basename(target.fsPath), rec.truncated));
    return target.fsPath;
  } catch (e) {
    void ui.error(writeFailedNotice(target.fsPath, (e as Error).message));
    return undefined;
  }
}

async function replayRecording(uri?: vscode.Uri): Promise<void> {
  const file =
    uri ??
    (
      await vscode.window.showOpenDialog({
        canSelectMany: false,
        filters: { [vscode.l10n.t('asciinema recording')]: ['cast'] },
        title: vscode.l10n.t('Replay an asciinema recording through the detector'),
      })
    )?.[0];
  if (!file) return;
  try {
    const cast = parseCast(fs.readFileSync(file.fsPath, 'utf8'), file.fsPath);
    const lines: string[] = [];
    // A stranger's recording: its evidence and screen can hold bidi controls or C1, shown escaped as in the CLI.
    const res = replayCast(cast, {}, (d) =>
      lines.push(
        jsonLine({
          t: Math.round(d.t * 1000) / 1000,
          agent: d.agent,
          state: d.state,
          source: d.source,
          evidence: d.evidence,
          ...(d.waitKind ? { waitKind: d.waitKind } : {}),
        }),
      ),
    );
    const screen = res.screen
      .split('\n')
      .map((l) => `// ${printable(l)}`)
      .join('\n');
    const content = `${lines.join('\n')}\n\n// ${vscode.l10n.t('final screen of {0}:', path.basename(file.fsPath))}\n${screen}\n`;
    const doc = await vscode.workspace.openTextDocument({ content, language: 'jsonc' });
    await vscode.window.showTextDocument(doc, { preview: false });
  } catch (e) {
    const msg = e instanceof CastError ? e.message : `${file.fsPath}: ${(e as Error).message}`;
    void ui.error(replayFailedNotice(msg));
  }
}
