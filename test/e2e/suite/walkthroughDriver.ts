/**
 * What the walkthrough test (walkthrough.e2e.test.ts) reads and drives: the installed manifest's walkthrough and
 * its steps' buttons, the keys a user presses in a quick input, and a button "clicked" the way a user does.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { QUICK_INPUT, QUICK_INPUT_FIELD, sleep, ui, type UiAction, UI_DRIVER } from './util';

const EXT_ID = 'agent-lens.agent-lens';

export interface Step {
  id: string;
  title: string;
  description: string;
  media?: { markdown?: string };
}
interface Walkthrough {
  id: string;
  title: string;
  steps: Step[];
}
export interface Link {
  title: string;
  command: string;
  args: unknown[];
}
type Req = Parameters<typeof ui>[1];

/** The installed extension's manifest with its %placeholders% resolved from package.nls.json. */
export function installedWalkthrough(): {
  dir: string;
  pkg: { publisher: string; name: string; repository: { url: string } };
  walkthrough: Walkthrough;
} {
  const ext = vscode.extensions.getExtension(EXT_ID);
  assert.ok(ext, `${EXT_ID} is installed`);
  const dir = ext.extensionPath;
  const nls = JSON.parse(fs.readFileSync(path.join(dir, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const resolve = (s: string) => s.replace(/^%([^%]+)%$/, (m: string, k: string) => nls[k] ?? m);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    repository: { url: string };
    contributes: { walkthroughs: Walkthrough[] };
  };
  const [w] = pkg.contributes.walkthroughs;
  assert.ok(w, 'the manifest contributes a walkthrough');
  const walkthrough = {
    ...w,
    title: resolve(w.title),
    // Each step's page is a %key% too (package.nls.<locale>.json names the page in that language).
    steps: w.steps.map((s) => ({
      ...s,
      title: resolve(s.title),
      description: resolve(s.description),
      ...(s.media ? { media: { ...s.media, ...(s.media.markdown ? { markdown: resolve(s.media.markdown) } : {}) } } : {}),
    })),
  };
  for (const s of [walkthrough.title, ...walkthrough.steps.flatMap((s) => [s.title, s.description, s.media?.markdown ?? ''])])
    assert.doesNotMatch(s, /^%.*%$/, `unresolved manifest string ${s}`);
  return { dir, pkg, walkthrough };
}

/** The buttons of a step: `[Title](command:id?args)` lines, args URI-encoded JSON (one value or an array). */
export function links(step: Step): { commands: Link[]; web: string[] } {
  const commands: Link[] = [];
  const web: string[] = [];
  for (const m of step.description.matchAll(/\[([^\]]+)\]\(([^)\s]+)\)/g)) {
    const [, title, target] = m;
    if (!target.startsWith('command:')) {
      web.push(target);
      continue;
    }
    const [id, query] = target.slice('command:'.length).split('?');
    const args: unknown = query ? JSON.parse(decodeURIComponent(query)) : [];
    commands.push({ title, command: id, args: Array.isArray(args) ? args : [args] });
  }
  return { commands, web };
}

export function within<T>(p: Thenable<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    Promise.resolve(p),
    sleep(ms).then(() => Promise.reject(new Error(`timed out after ${ms} ms waiting for ${what}`))),
  ]);
}

/** The keys a user presses in a quick input: wait for it to show `hasText` (or a field matching `field`), type, Enter. */
export function answer(opts: { hasText?: string; field?: string; text?: string }): UiAction[] {
  const out: UiAction[] = [opts.field ? { waitFor: opts.field } : { waitFor: QUICK_INPUT, hasText: opts.hasText }];
  if (opts.text !== undefined) out.push({ fill: QUICK_INPUT_FIELD, text: opts.text }, { sleep: 250 });
  out.push({ press: 'Enter', selector: QUICK_INPUT_FIELD }, { sleep: 300 });
  return out;
}

/** A field whose placeholder contains `text`: quick picks show their question only there. */
export const placeholder = (text: string) => `${QUICK_INPUT_FIELD}[placeholder*="${text.replace(/"/g, '\\"')}"]`;

/** A file or folder as bytes (null: missing), to compare before and after. */
export function snapshot(p: string): string | null {
  if (!fs.existsSync(p)) return null;
  if (!fs.statSync(p).isDirectory()) return fs.readFileSync(p).toString('base64');
  return JSON.stringify(
    fs
      .readdirSync(p)
      .sort()
      .map((f) => [f, snapshot(path.join(p, f))]),
  );
}

/**
 * The walkthrough's buttons, run as a click runs them (see `click`). `failures` collects the buttons whose UI could
 * not be driven; `fullId` is the walkthrough's id once it is known.
 */
export function walkthroughDriver(failures: string[], fullId: () => string) {
  /**
   * Runs a button's command as a click does. `drive`: what the runner types while the command asks (then the
   * command's result is awaited); tried twice, since a quick input without ignoreFocusOut closes when anything
   * takes the focus in between. `fallback`: the same outcome with arguments, where nobody can type or the UI
   * could not be driven (then recorded in `failures`).
   */
  async function click<T>(
    link: Link,
    drive?: { name: string; req: Req },
    fallback?: () => Thenable<T | undefined>,
  ): Promise<T | undefined> {
    if (!drive) return vscode.commands.executeCommand<T>(link.command, ...link.args);
    if (!UI_DRIVER) return fallback ? within(fallback(), 90_000, `${link.title} with arguments`) : undefined;
    let last: Error | undefined;
    for (const attempt of [1, 2]) {
      const run = Promise.resolve(vscode.commands.executeCommand<T>(link.command, ...link.args));
      try {
        await ui(attempt === 1 ? drive.name : `${drive.name}-retry`, drive.req);
        return await within(run, 60_000, `${link.title} to finish`);
      } catch (e) {
        last = e as Error;
        console.log(`      attempt ${attempt}: “${link.title}” not driven: ${last.message.split('\n')[0]}`);
        await settle(run);
      }
    }
    failures.push(`${link.title}: ${last?.message.split('\n')[0]}`);
    console.log(`      UI NOT DRIVEN for “${link.title}”: running it with arguments instead`);
    return fallback ? within(fallback(), 90_000, `${link.title} with arguments`) : undefined;
  }

  /** Closes whatever the command still asks until it returns. */
  async function settle(run: Promise<unknown>): Promise<void> {
    let settled = false;
    void run.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (let i = 0; i < 20 && !settled; i++) {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await sleep(400);
    }
  }

  /** Runs a command and accepts what its quick inputs preselect, with VS Code's own command (no keyboard). */
  async function acceptDefaults<T>(command: string, times: number, ...args: unknown[]): Promise<T | undefined> {
    const run = vscode.commands.executeCommand<T>(command, ...args);
    for (let i = 0; i < times; i++) {
      await sleep(1500);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    return within(run, 30_000, command);
  }

  /** Brings the walkthrough to the front and, in code-server, clicks the step's title as a user would. */
  async function showStep(s: Step, shot: string): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', fullId(), false);
    if (!UI_DRIVER) return;
    await ui(shot, {
      actions: [
        { waitFor: '.gettingStartedContainer', hasText: s.title },
        { click: '.getting-started-step .step-title', hasText: s.title },
        { sleep: 1500 },
      ],
    }).catch((e: Error) => {
      failures.push(`step “${s.title}” not shown: ${e.message}`);
    });
  }

  return { click, acceptDefaults, showStep };
}
