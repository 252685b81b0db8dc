import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { writeFileAtomic } from '../fsutil';
import { CastError, parseCast } from '../replay/cast';
import { replayCast } from '../replay/replay';
import { isAgent } from '../store/policy';
import type { TerminalState } from '../store/types';
import { historyLines, pickItems, type ViewInput } from '../views/model';
import { FOCUS_COMMAND } from './statusBar';
import type { TerminalAdapter } from './terminals';
import { SHOW_TERMINAL_COMMAND } from './tree';

export function registerCommands(input: () => ViewInput, terminals: TerminalAdapter, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const show = (id: string | undefined) => {
    const t = id ? terminals.terminalOf(id) : undefined;
    if (!t) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Agent Lens: that terminal is gone.'));
      return;
    }
    t.show(false);
  };

  const pickTerminal = async (placeHolder: string, filter: (t: TerminalState) => boolean = () => true) => {
    const items = pickItems(input(), filter);
    if (items.length === 0) return undefined;
    const picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true });
    return picked?.terminalId;
  };

  return [
    vscode.commands.registerCommand(SHOW_TERMINAL_COMMAND, (id: string) => show(id)),

    vscode.commands.registerCommand(FOCUS_COMMAND, async () => {
      if (!input().terminals.some(isAgent)) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Agent Lens: no terminal runs an agent right now.'));
        return;
      }
      show(await pickTerminal(vscode.l10n.t('Agent terminals, most urgent first'), isAgent));
    }),

    vscode.commands.registerCommand('agentLens.showHistory', () => {
      log.info('— state history —');
      for (const line of historyLines(input())) log.info(line);
      log.show(true);
    }),

    // Arguments (terminal id, target path) let scripts and tests record without the dialogs.
    vscode.commands.registerCommand('agentLens.recordTerminal', async (terminalId?: string, targetPath?: string) => {
      const activeId = vscode.window.activeTerminal ? terminals.idOf(vscode.window.activeTerminal) : undefined;
      const withRecording = (id: string) => (terminals.session(id)?.recording()?.length ?? 0) > 0;
      const id =
        terminalId && withRecording(terminalId) ? terminalId : activeId && withRecording(activeId) ? activeId : terminalId ? undefined : await pickTerminal(vscode.l10n.t('Which terminal’s stream to save as .cast?'), (t) => withRecording(t.id));
      if (!id) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Agent Lens: nothing recorded yet. Agent Lens records the output of commands it reads (agents); start one, then record.'));
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
        const file = path.basename(target.fsPath);
        void vscode.window.showInformationMessage(
          rec.truncated
            ? vscode.l10n.t('Agent Lens: saved {0} (older output dropped: the recording keeps the last 512 KB). Replay it with “agent-lens replay”.', file)
            : vscode.l10n.t('Agent Lens: saved {0}. Replay it with “agent-lens replay”.', file),
        );
        return target.fsPath;
      } catch (e) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Agent Lens: could not write {0}: {1}. Choose a folder you can write to.', target.fsPath, (e as Error).message));
        return undefined;
      }
    }),

    vscode.commands.registerCommand('agentLens.replayRecording', async (uri?: vscode.Uri) => {
      const file = uri ?? (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { [vscode.l10n.t('asciinema recording')]: ['cast'] }, title: vscode.l10n.t('Replay an asciinema recording through the detector') }))?.[0];
      if (!file) return;
      try {
        const cast = parseCast(fs.readFileSync(file.fsPath, 'utf8'), file.fsPath);
        const lines: string[] = [];
        const res = replayCast(cast, {}, (d) => lines.push(JSON.stringify({ t: Math.round(d.t * 1000) / 1000, agent: d.agent, state: d.state, source: d.source, evidence: d.evidence, ...(d.waitKind ? { waitKind: d.waitKind } : {}) })));
        const content = `${lines.join('\n')}\n\n// ${vscode.l10n.t('final screen of {0}:', path.basename(file.fsPath))}\n${res.screen
          .split('\n')
          .map((l) => `// ${l}`)
          .join('\n')}\n`;
        const doc = await vscode.workspace.openTextDocument({ content, language: 'jsonc' });
        await vscode.window.showTextDocument(doc, { preview: false });
      } catch (e) {
        const msg = e instanceof CastError ? e.message : `${file.fsPath}: ${(e as Error).message}`;
        void vscode.window.showErrorMessage(vscode.l10n.t('Agent Lens: cannot replay: {0}', msg));
      }
    }),
  ];
}
