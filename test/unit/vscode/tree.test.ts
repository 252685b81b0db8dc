import * as assert from 'assert';
import Module from 'module';
import type * as TreeModule from '../../../src/vscode/tree';
import type { TreeRow } from '../../../src/views/treeRow';

/**
 * A click on a tree row runs the row's command for the row clicked, also when the click's selection reaches the
 * extension host after the command (a busy host), and with the row as the tree has it now.
 */
const ran: unknown[][] = [];
const fakeVscode = { commands: { executeCommand: (...args: unknown[]) => void ran.push(args) } };

function treeWith(fake: unknown): typeof TreeModule {
  const loader = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
  const original = loader._load;
  loader._load = function (this: unknown, request: string, ...rest: unknown[]) {
    return request === 'vscode' ? fake : original.call(this, request, ...rest);
  };
  try {
    return require('../../../src/vscode/tree') as typeof TreeModule;
  } finally {
    loader._load = original;
  }
}

const row = (key: string, id: string, ...args: unknown[]): TreeRow =>
  ({ key, label: key, description: '', icon: { id: 'terminal' }, command: { id, args } }) as unknown as TreeRow;

/** A tree view whose selection changes when the test says, with VS Code's selection event. */
function fakeView(selected: TreeRow[]) {
  const listeners = new Set<() => void>();
  return {
    selection: selected,
    onDidChangeSelection(l: () => void) {
      listeners.add(l);
      return { dispose: () => listeners.delete(l) };
    },
    select(rows: TreeRow[]) {
      this.selection = rows;
      for (const l of [...listeners]) l();
    },
  };
}

describe('a click on a tree row', () => {
  const { rowClick } = treeWith(fakeVscode);
  const now = new Map<string, TreeRow>();
  const tree = { row: (picked: { key: string }) => now.get(picked.key) } as unknown as TreeModule.AgentTreeProvider;
  beforeEach(() => {
    ran.length = 0;
    now.clear();
  });

  it('runs the row just selected, as the tree has it now', async () => {
    const view = fakeView([]);
    const click = rowClick(view as never, tree);
    now.set('wait:w-2', row('wait:w-2', 'agentLens.answerWait', 'w-2'));
    view.select([row('wait:w-2', 'agentLens.answerWait', 'w-2-stale')]);
    await click();
    assert.deepStrictEqual(ran, [['agentLens.answerWait', 'w-2']]);
    click.dispose();
  });

  it('waits for the click’s own selection when it comes after the command, instead of running the row clicked before', async () => {
    const before = row('wait:w-1', 'agentLens.showTerminal', 't-1');
    const view = fakeView([before]);
    const click = rowClick(view as never, tree);
    await new Promise((r) => setTimeout(r, 450));
    now.set('wait:w-2', row('wait:w-2', 'agentLens.answerWait', 'w-2'));
    const done = click();
    setTimeout(() => view.select([row('wait:w-2', 'agentLens.answerWait', 'w-2')]), 50);
    await done;
    assert.deepStrictEqual(ran, [['agentLens.answerWait', 'w-2']]);
    click.dispose();
  });

  it('a second click on the row already selected runs it too (no selection change comes)', async () => {
    const view = fakeView([row('term:a', 'agentLens.showTerminal', 'a')]);
    const click = rowClick(view as never, tree);
    await new Promise((r) => setTimeout(r, 450));
    await click();
    assert.deepStrictEqual(ran, [['agentLens.showTerminal', 'a']]);
    click.dispose();
  });

  it('a row handed in (Enter on a row in a test, an inline button) runs as given; nothing selected runs nothing', async () => {
    const click = rowClick(fakeView([]) as never, tree);
    await click(row('term:b', 'agentLens.showTerminal', 'b'));
    await click();
    assert.deepStrictEqual(ran, [['agentLens.showTerminal', 'b']]);
    click.dispose();
  });
});
