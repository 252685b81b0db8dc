import * as assert from 'assert';
import { currentRow, type TreeRow } from '../../../src/views/treeRow';

const row = (key: string, terminalId?: string, children?: TreeRow[]): TreeRow => ({
  key,
  label: key,
  description: '',
  icon: { id: 'terminal' },
  contextValue: 'x',
  ...(terminalId ? { terminalId } : {}),
  ...(children ? { children } : {}),
});

describe('the row a click means', () => {
  const tree = [
    row('group:needs-you', undefined, [row('wait:w-3', 'term-a', [row('question:w-3', 'term-a')]), row('wait:w-9', 'term-b')]),
    row('terminal:term-a', 'term-a'),
    row('terminal:term-c', 'term-c'),
  ];

  it('the row with the same key, wherever it sits', () => {
    assert.strictEqual(currentRow(tree, { key: 'wait:w-9', terminalId: 'term-b' })?.key, 'wait:w-9');
    assert.strictEqual(currentRow(tree, { key: 'terminal:term-c', terminalId: 'term-c' })?.key, 'terminal:term-c');
  });

  it('a dialog row redrawn for the next dialog of the same terminal (VS Code keeps it selected): that terminal’s new wait row', () => {
    assert.strictEqual(currentRow(tree, { key: 'wait:w-2', terminalId: 'term-a' })?.key, 'wait:w-3');
  });

  it('never another terminal’s row, nor a row of another kind', () => {
    assert.strictEqual(currentRow(tree, { key: 'wait:w-1', terminalId: 'term-c' }), undefined);
    assert.strictEqual(currentRow(tree, { key: 'option:w-2:0', terminalId: 'term-a' }), undefined);
    assert.strictEqual(currentRow(tree, { key: 'wait:w-2' }), undefined);
  });
});
