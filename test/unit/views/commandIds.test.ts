/**
 * One table of command ids (src/views/commandIds.ts) and package.json agree both ways, every menu, walkthrough
 * and welcome link names a command in it, and no module spells an id out on its own.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { COMMAND_IDS, INTERNAL_COMMANDS } from '../../../src/views/commandIds';
import { ROOT } from '../helpers';

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  contributes: {
    commands: { command: string }[];
    menus: Record<string, { command?: string }[]>;
    walkthroughs: unknown;
    viewsWelcome: unknown;
  };
};
const nls = fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8');

function walk(dir: string, out: string[]): string[] {
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) walk(rel, out);
    else if (e.name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

describe('command ids: one table, and package.json agrees', () => {
  const table = Object.values(COMMAND_IDS) as string[];

  it('package.json contributes exactly the table’s commands, the internal row click aside', () => {
    const contributed = pkg.contributes.commands.map((c) => c.command).sort();
    assert.deepStrictEqual(contributed, table.filter((id) => !(INTERNAL_COMMANDS as readonly string[]).includes(id)).sort());
  });

  it('every menu entry and every command link in walkthroughs, welcome views and their texts names one of them', () => {
    const named = Object.values(pkg.contributes.menus).flatMap((entries) => entries.map((e) => e.command ?? ''));
    const linked = [
      ...`${JSON.stringify(pkg.contributes.walkthroughs)}${JSON.stringify(pkg.contributes.viewsWelcome)}${nls}`.matchAll(
        /command:(agentLens\.[A-Za-z]+)/g,
      ),
    ].map((m) => m[1]);
    assert.ok(named.length > 10 && linked.length > 3, `found ${named.length} menu entries and ${linked.length} links`);
    for (const id of [...named, ...linked]) assert.ok(table.includes(id), `${id} is not in src/views/commandIds.ts`);
  });

  it('no module but the table spells out a command id', () => {
    const ids = new RegExp(`['"\`](${table.map((id) => id.replace('.', '\\.')).join('|')})['"\`]`);
    const offenders = walk('src', []).filter(
      (f) => f !== 'src/views/commandIds.ts' && ids.test(fs.readFileSync(path.join(ROOT, f), 'utf8')),
    );
    assert.deepStrictEqual(offenders, []);
  });
});
