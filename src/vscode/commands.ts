import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { writeFileAtomic } from '../fsutil';
import { CastError, parseCast } from '../replay/cast';
import { replayCast } from '../replay/replay';
import { byUrgency, StateStore } from '../state/store';
import { agentName, describe, stateCodicon } from './presentation';
import { FOCUS_COMMAND } from './statusBar';
import type { TerminalAdapter } from './terminals';
import { SHOW_TERMINAL_COMMAND } from './tree';

export function registerCommands(store: StateStore, terminals: TerminalAdapter, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const show = (id: string | undefined) => {
    const t = id ? terminals.terminalOf(id) : undefined;
    if (!t) {
      void vscode.window.showWarningMessage('Agent Lens: that terminal is gone.');
      return;
    }
    t.show(false);
  };

  const pickTerminal = async (placeHolder: string, filter: (id: string) => boolean = () => true) => {
    const now = Date.now();
    const states = store.all().filter((s) => filter(s.id)).sort(byUrgency);
    if (states.length === 0) return undefined;
    const picked = await vscode.window.showQuickPick(
      states.map((s) => ({ label: `$(${s.agent === 'shell' ? 'terminal' : stateCodicon(s)}) ${s.name}`, description: describe(s, now), detail: s.agent === 'shell' ? undefined : s.evidence, id: s.id })),
      { placeHolder, matchOnDescription: true },
    );
    return picked?.id;
  };

  return [
    vscode.commands.registerCommand(SHOW_TERMINAL_COMMAND, (id: string) => show(id)),

    vscode.commands.registerCommand(FOCUS_COMMAND, async () => {
      const agents = store.all().filter((s) => s.agent !== 'shell');
      if (agents.length === 0) {
        void vscode.window.showInformationMessage('Agent Lens: no terminal runs an agent right now.');
        return;
      }
      show(await pickTerminal('Agent terminals, most urgent first', (id) => store.get(id)?.agent !== 'shell'));
    }),

    vscode.commands.registerCommand('agentLens.showHistory', () => {
      const now = Date.now();
      log.info('— state history —');
      for (const s of store.all()) {
        log.info(`[${s.name}] now ${describe(s, now)}`);
        for (const h of s.history) log.info(`[${s.name}]   ${new Date(h.at).toISOString()} ${agentName(h.agent)} → ${h.state} (${h.source}) ${h.evidence}`);
      }
      log.show(true);
    }),

    // Arguments (terminal id, target path) let scripts and tests record without the dialogs.
    vscode.commands.registerCommand('agentLens.recordTerminal', async (terminalId?: string, targetPath?: string) => {
      const activeId = vscode.window.activeTerminal ? terminals.idOf(vscode.window.activeTerminal) : undefined;
      const withRecording = (id: string) => (terminals.session(id)?.recording()?.length ?? 0) > 0;
      const id =
        terminalId && withRecording(terminalId) ? terminalId : activeId && withRecording(activeId) ? activeId : terminalId ? undefined : await pickTerminal('Which terminal’s stream to save as .cast?', withRecording);
      if (!id) {
        void vscode.window.showInformationMessage('Agent Lens: nothing recorded yet. Agent Lens records the output of commands it reads (agents); start one, then record.');
        return undefined;
      }
      const rec = terminals.session(id)!.recording()!;
      const name = store.get(id)?.name ?? id;
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const target = targetPath
        ? vscode.Uri.file(targetPath)
        : await vscode.window.showSaveDialog({
            defaultUri: vscode.Uri.file(path.join(folder, `agent-lens-${name.replace(/[^\w.-]+/g, '_')}-${stamp}.cast`)),
            filters: { 'asciinema recording': ['cast'] },
          });
      if (!target) return undefined;
      try {
        writeFileAtomic(target.fsPath, rec.toCast(`Agent Lens: ${name}`));
        void vscode.window.showInformationMessage(`Agent Lens: saved ${path.basename(target.fsPath)}${rec.truncated ? ' (older output dropped: the recording keeps the last 512 KB)' : ''}. Replay it with “agent-lens replay”.`);
        return target.fsPath;
      } catch (e) {
        void vscode.window.showErrorMessage(`Agent Lens: could not write ${target.fsPath}: ${(e as Error).message}. Choose a folder you can write to.`);
        return undefined;
      }
    }),

    vscode.commands.registerCommand('agentLens.replayRecording', async (uri?: vscode.Uri) => {
      const file = uri ?? (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'asciinema recording': ['cast'] }, title: 'Replay an asciinema recording through the detector' }))?.[0];
      if (!file) return;
      try {
        const cast = parseCast(fs.readFileSync(file.fsPath, 'utf8'), file.fsPath);
        const lines: string[] = [];
        const res = replayCast(cast, {}, (d) => lines.push(JSON.stringify({ t: Math.round(d.t * 1000) / 1000, agent: d.agent, state: d.state, source: d.source, evidence: d.evidence, ...(d.waitKind ? { waitKind: d.waitKind } : {}) })));
        const content = `${lines.join('\n')}\n\n// final screen of ${path.basename(file.fsPath)}:\n${res.screen
          .split('\n')
          .map((l) => `// ${l}`)
          .join('\n')}\n`;
        const doc = await vscode.workspace.openTextDocument({ content, language: 'jsonc' });
        await vscode.window.showTextDocument(doc, { preview: false });
      } catch (e) {
        const msg = e instanceof CastError ? e.message : `${file.fsPath}: ${(e as Error).message}`;
        void vscode.window.showErrorMessage(`Agent Lens: cannot replay: ${msg}`);
      }
    }),
  ];
}
