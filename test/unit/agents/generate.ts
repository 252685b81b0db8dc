/**
 * The lists of agents that code must hold as source (a type union, static imports), generated from the folders of
 * src/agents, so adding an agent is adding its folder: test/unit/agents/registry.test.ts compares these files with
 * what they should be and, run with AGENT_LENS_WRITE=1 (`npm run agents:generate`), writes them.
 */
import * as fs from 'fs';
import * as path from 'path';

export interface AgentFolder {
  id: string;
  rank: number;
  /** Its hooks.ts has a table of events read one at a time (`export const events`). */
  events: boolean;
}

/** Every folder of src/agents with an index.ts, in the detector's order (each descriptor's `rank`). */
export function agentFolders(root: string): AgentFolder[] {
  const dir = path.join(root, 'src/agents');
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, 'index.ts')))
    .map((e) => {
      const index = fs.readFileSync(path.join(dir, e.name, 'index.ts'), 'utf8');
      const rank = /^\s*rank:\s*(\d+),/m.exec(index);
      if (!rank) throw new Error(`src/agents/${e.name}/index.ts has no rank: give it its place in the detector's order`);
      const hooks = path.join(dir, e.name, 'hooks.ts');
      const events = fs.existsSync(hooks) && /^export const events\b/m.test(fs.readFileSync(hooks, 'utf8'));
      return { id: e.name, rank: Number(rank[1]), events };
    })
    .sort((a, b) => a.rank - b.rank || a.id.localeCompare(b.id));
}

const camel = (id: string) => id.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
const HEADER = (what: string) =>
  `// Generated from the folders of src/agents by test/unit/agents/generate.ts (npm run agents:generate): do not edit.\n// ${what}\n`;

/** Each generated file's path (from the repository root) and the text it must hold. */
export function generatedFiles(root: string): Record<string, string> {
  const agents = agentFolders(root);
  return {
    'src/common/agentIds.ts':
      HEADER('Every agent id, in the detector’s order, and `shell` for none (src/common/agents.ts says what they mean).') +
      `export const AGENT_IDS = [${[...agents.map((a) => `'${a.id}'`), "'shell'"].join(', ')}] as const;\n`,
    'src/agents/folders.ts':
      HEADER('Every agent’s descriptor, in the detector’s order; src/agents/registry.ts is where the rest of the code asks.') +
      `import type { AgentDescriptor } from './descriptor';\n` +
      agents.map((a) => `import { agent as ${camel(a.id)} } from './${a.id}';\n`).join('') +
      `\nexport const FOLDER_AGENTS: readonly AgentDescriptor[] = [${agents.map((a) => camel(a.id)).join(', ')}];\n`,
    'src/agents/hookEventTables.ts':
      HEADER('The hook events of each agent that has a table of them, for the reporter (src/agents/hookEvents.ts).') +
      agents
        .filter((a) => a.events)
        .map((a) => `import { events as ${camel(a.id)} } from './${a.id}/hooks';\n`)
        .join('') +
      `\nexport const EVENT_TABLES = {\n${agents
        .filter((a) => a.events)
        .map((a) => `  ${a.id.includes('-') ? `'${a.id}'` : a.id}: ${camel(a.id)},\n`)
        .join('')}} as const;\n`,
  };
}
