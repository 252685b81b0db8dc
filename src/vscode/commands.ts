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
import { COMMAND_IDS } from '../views/commandIds';

export function registerCommands(input: () => ViewInput, terminals: TerminalAdapter, log: vscode.LogOutputChannel): vscode.Disposable[] {
  /** Brings a terminal forward; nothing chosen (Escape in a picker) is no error, a terminal that closed is. */
  const show = (id: string | undefined) => {
    if (id === undefined) return;
    const t = terminals.terminalOf(id);
    if (!t) {
      void ui.warn(vscode.l10n.t('Agent Lens: that terminal is gone.'));
      return;
    }
    t.show(false);
  };

  const pickTerminal = async (placeHolder: string, filter: (t: TerminalState) => boolean = () => true) => {
    const items = pickItems(input(), filter);
    if (items.length === 0) return undefined;
    const picked = await ui.pick(items, { placeHolder, matchOnDescription: true });
    return picked?.terminalId;
  };

  return [
    vscode.commands.registerCommand(COMMAND_IDS.showTerminal, (arg?: RowOrId) => show(terminalIdOf(arg))),

    vscode.commands.registerCommand(COMMAND_IDS.focusTerminal, async () => {
      if (!input().terminals.some(isAgent)) {
        void ui.info(vscode.l10n.t('Agent Lens: no terminal runs an agent right now.'));
        return;
      }
      show(await pickTerminal(vscode.l10n.t('Agent terminals, most urgent first'), isAgent));
    }),

    vscode.commands.registerCommand(COMMAND_IDS.showHistory, () => {
      log.info('— state history —');
      for (const line of historyLines(input())) log.info(line);
      log.show(true);
    }),

    // Arguments (terminal id, target path) let scripts and tests record without the dialogs.
    vscode.commands.registerCommand(COMMAND_IDS.recordTerminal, async (arg?: RowOrId, targetPath?: string) => {
      const terminalId = terminalIdOf(arg);
      const activeId = vscode.window.activeTerminal ? terminals.idOf(vscode.window.activeTerminal) : undefined;
      const withRecording = (id: string) => (terminals.session(id)?.recording()?.length ?? 0) > 0;
      const id =
        terminalId && withRecording(terminalId) ? terminalId : activeId && withRecording(activeId) ? activeId : terminalId ? undefined : await pickTerminal(vscode.l10n.t('Which terminal’s stream to save as .cast?'), (t) => withRecording(t.id));
      if (!id) {
        void ui.info(vscode.l10n.t('Agent Lens: nothing recorded yet. Agent Lens records the output of commands it reads (agents); start one, then record.'));
        return undefined;
      }
      const rec = terminals.session(id)!.recording()!;
      const name = input().terminals.find((t) => t.id === id)?.name ?? id;
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
    }),

    vscode.commands.registerCommand(COMMAND_IDS.replayRecording, async (uri?: vscode.Uri) => {
      const file = uri ?? (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { [vscode.l10n.t('asciinema recording')]: ['cast'] }, title: vscode.l10n.t('Replay an asciinema recording through the detector') }))?.[0];
      if (!file) return;
      try {
        const cast = parseCast(fs.readFileSync(file.fsPath, 'utf8'), file.fsPath);
        const lines: string[] = [];
        // A stranger's recording: its evidence and screen can hold bidi controls or C1, shown escaped as in the CLI.
        const res = replayCast(cast, {}, (d) => lines.push(jsonLine({ t: Math.round(d.t * 1000) / 1000, agent: d.agent, state: d.state, source: d.source, evidence: d.evidence, ...(d.waitKind ? { waitKind: d.waitKind } : {}) })));
        const content = `${lines.join('\n')}\n\n// ${vscode.l10n.t('final screen of {0}:', path.basename(file.fsPath))}\n${res.screen
          .split('\n')
          .map((l) => `// ${printable(l)}`)
          .join('\n')}\n`;
        const doc = await vscode.workspace.openTextDocument({ content, language: 'jsonc' });
        await vscode.window.showTextDocument(doc, { preview: false });
      } catch (e) {
        const msg = e instanceof CastError ? e.message : `${file.fsPath}: ${(e as Error).message}`;
        void ui.error(replayFailedNotice(msg));
      }
    }),
  ];
}
