/**
 * Inputs for bench/linear.ts that come from files and other programs: session logs, recordings, team.toml, the
 * agents' settings files and OpenCode's database records. Hook payloads are in bench/linearHooks.ts.
 */
import { parseTeam } from '../src/handoff/team/registry';
import type { TeamAgent } from '../src/handoff/team/schema';
import { upsertAgentSection } from '../src/handoff/team/writeBack';
import { addHooks, type HookEntry, installedState, removeHooks } from '../src/integrations/install/jsonHooks';
import { createOpenCodeDecoder, decoderFor, type LineLogAgent, type OpenCodeRows } from '../src/jsonl';
import { LineSplitter } from '../src/jsonl/lines';
import { parseCast } from '../src/formats/cast';
import { parseHookFile } from '../src/formats/hookFile';
import { decodeLogFile } from '../src/replay/logFiles';
import { decodeRecord, parseColumns } from '../src/formats/sqlite/btree';
import type { LinearCase } from './linear';
import { hookCases } from './linearHooks';
import { fill, pure } from './linearTerminal';

const count = (n: number, per: number) => Math.max(1, Math.floor(n / per));
const TS = '2025-01-01T00:00:00.000Z';

function splitter(name: string, gen: (n: number) => string, chunk: number): LinearCase {
  return {
    name: `lines: ${name}`,
    make: (n) => {
      const buf = Buffer.from(gen(n));
      const parts: Buffer[] = [];
      for (let i = 0; i < buf.length; i += chunk) parts.push(buf.subarray(i, i + chunk));
      return {
        bytes: buf.length,
        fresh: () => () => {
          const s = new LineSplitter();
          for (const p of parts) s.push(p);
        },
      };
    },
  };
}

/** Lines through a fresh decoder, as the watcher hands them over. */
function decoder(agent: LineLogAgent, name: string, gen: (n: number) => string[]): LinearCase {
  return {
    name: `jsonl ${agent}: ${name}`,
    make: (n) => {
      const lines = gen(n);
      return {
        bytes: lines.reduce((s, l) => s + l.length, 0),
        fresh: () => {
          const d = decoderFor(agent);
          return () => {
            for (const l of lines) d.line(l);
          };
        },
      };
    },
  };
}

/** Batches of rows through a fresh OpenCode decoder, in order (later batches find the state earlier ones left). */
function opencode(name: string, gen: (n: number) => OpenCodeRows[]): LinearCase {
  return {
    name: `jsonl opencode: ${name}`,
    make: (n) => {
      const batches = gen(n);
      return {
        bytes: JSON.stringify(batches).length,
        fresh: () => {
          const d = createOpenCodeDecoder();
          return () => {
            for (const b of batches) d.rows(b);
          };
        },
      };
    },
  };
}

const claudeUser = (content: string, extra = '') =>
  `{"type":"user","sessionId":"s","timestamp":"${TS}","promptSource":"typed"${extra},"message":{"content":${content}}}`;
const codexLine = (payload: string) => `{"timestamp":"${TS}","type":"event_msg","payload":${payload}}`;
const CODEX_META = `{"timestamp":"${TS}","type":"session_meta","payload":{"id":"0000","cwd":"/w"}}`;
const deep = (d: number) => `${'['.repeat(d)}${']'.repeat(d)}`;

const session = { id: 'ses_1', directory: '/w', parent_id: null, time_created: 1, time_updated: 1 };
const message = (id: string, data: Record<string, unknown>) => ({
  id,
  session_id: 'ses_1',
  time_created: 1,
  time_updated: 1,
  data: JSON.stringify(data),
});
const assistant = (id: string, created: number, extra: Record<string, unknown> = {}) =>
  message(id, { role: 'assistant', parentID: 'msg_0', time: { created, completed: created + 1 }, finish: 'tool-calls', ...extra });
const toolError = (id: string, messageId: string, error: string) => ({
  id,
  message_id: messageId,
  session_id: 'ses_1',
  time_created: 1,
  time_updated: 1,
  data: JSON.stringify({ type: 'tool', tool: 'bash', state: { status: 'error', error } }),
});
const pad = (i: number) => String(i).padStart(8, '0');

/** A team.toml agent for write-back. */
const AGENT: TeamAgent = { key: 'k', mode: 'embedded', note: 'n', dispatch_steps: [] };
const ENTRY: HookEntry = { event: 'Stop', command: 'exec /home/u/.agent-lens/bin/agent-lens-report claude-code', timeout: 10 };
const OUR_GROUP = { hooks: [{ type: 'command', command: ENTRY.command, timeout: 10 }] };

/** An SQLite varint (big-endian groups of 7 bits, the high bit says more follow). */
function varint(v: number): number[] {
  const out = [v & 0x7f];
  for (v = Math.floor(v / 128); v > 0; v = Math.floor(v / 128)) out.unshift((v & 0x7f) | 0x80);
  return out;
}

/** A record of `k` one-byte integer columns: the header grows with the columns, so its varint is long too. */
function record(k: number): Buffer {
  let hdr = k + 1;
  while (varint(hdr).length + k !== hdr) hdr = varint(hdr).length + k;
  return Buffer.from([...varint(hdr), ...new Array<number>(k).fill(1), ...new Array<number>(k).fill(7)]);
}

export function fileCases(): LinearCase[] {
  return [
    splitter('one line in 64 KB chunks', (n) => `${fill('x', n)}\n`, 64 * 1024),
    splitter('one line in 16-byte chunks', (n) => `${fill('x', n)}\n`, 16),
    splitter('many tiny lines', (n) => fill('{}\r\n\n', n), 64 * 1024),
    decoder('claude-code', 'one long prompt line', (n) => [claudeUser(JSON.stringify(fill('why ', n)))]),
    decoder('claude-code', 'deeply nested JSON', (n) => [claudeUser(`[{"type":"text","text":"x","input":${deep(n / 2)}}]`)]),
    decoder('claude-code', 'many tiny and broken lines', (n) => fill('{"type":"user"}\n[\n{}\n', n).split('\n')),
    decoder('claude-code', 'many tool uses, then a rejection', (n) => {
      const k = count(n, 100);
      const uses = Array.from({ length: k }, (_, i) => `{"type":"tool_use","id":"t${i}","name":"Bash"}`).join(',');
      const results = Array.from({ length: k }, (_, i) => `{"type":"tool_result","tool_use_id":"t${k - 1 - i}"}`).join(',');
      return [
        claudeUser('"go"'),
        `{"type":"assistant","sessionId":"s","timestamp":"${TS}","message":{"content":[${uses}]}}`,
        claudeUser(`[${results}]`, ',"toolDenialKind":"user-rejected"'),
      ];
    }),
    decoder('codex', 'one long error line', (n) => [
      CODEX_META,
      codexLine(`{"type":"task_complete","turn_id":"t","error":{"message":${JSON.stringify(fill('e ', n))}}}`),
    ]),
    decoder('codex', 'deeply nested payload', (n) => [CODEX_META, codexLine(`{"type":"task_started","x":${deep(n / 2)}}`)]),
    decoder('codex', 'many short lines', (n) => [
      CODEX_META,
      ...fill(`${codexLine('{"type":"task_started","turn_id":"t"}')}\n`, n).split('\n'),
    ]),
    opencode('one message with long data', (n) => [
      { session: [session], message: [assistant('msg_1', 1, { error: { name: 'APIError', data: { message: fill('x', n) } } })], part: [] },
    ]),
    opencode('deeply nested part data', (n) => [
      { session: [session], message: [], part: [{ ...toolError('prt_1', 'msg_1', 'x'), data: `{"type":"tool","x":${deep(n / 2)}}` }] },
    ]),
    opencode('many messages and parts', (n) => {
      const k = count(n, 400);
      return [
        {
          session: [session],
          message: Array.from({ length: k }, (_, i) => assistant(`msg_${pad(i)}`, i)),
          part: Array.from({ length: k }, (_, i) => toolError(`prt_${pad(i)}`, `msg_${pad(i)}`, 'failed')),
        },
      ];
    }),
    opencode('kept tool errors, then many assistant messages', (n) => {
      const k = count(n, 500);
      const errors = Array.from({ length: k }, (_, i) => toolError(`prt_${pad(i)}`, `msg_z${pad(i)}`, 'failed'));
      return [
        { session: [session], message: [], part: errors },
        { session: [], message: Array.from({ length: k }, (_, i) => assistant(`msg_a${pad(i)}`, i)), part: [] },
      ];
    }),
    pure(
      'cast: one long event',
      (n) => `{"version":2,"width":80,"height":24}\n[0.1,"o",${JSON.stringify(fill('\x1b[1mx', n))}]\n`,
      parseCast,
    ),
    pure('cast: many events', (n) => `{"version":2,"width":80,"height":24}\n${fill('[0.1,"o","ab"]\n', n)}`, parseCast),
    pure(
      'cast: v3 comments and blank lines',
      (n) => `{"version":3,"term":{"cols":80,"rows":24}}\n${fill('# c\n\n  \n[0.1,"o","a"]\n', n)}`,
      parseCast,
    ),
    pure('cast: deeply nested header', (n) => deep(n / 2), parseCast),
    pure(
      'team.toml: one long string',
      (n) => `[a]\nmode = "embedded"\nnote = "${fill('x', n)}"\n`,
      (s) => parseTeam(s, 't'),
    ),
    pure(
      'team.toml: string of escapes',
      (n) => `[a]\nmode = "embedded"\nnote = "${fill('\\u0041\\t', n)}"\n`,
      (s) => parseTeam(s, 't'),
    ),
    pure(
      'team.toml: dotted key of many parts',
      (n) => `[a]\nmode = "embedded"\n${fill('b.', n)}c = 1\n`,
      (s) => parseTeam(s, 't'),
    ),
    pure(
      'team.toml: many sections',
      (n) => Array.from({ length: count(n, 30) }, (_, i) => `[a${i}]\nmode = "embedded"\n`).join(''),
      (s) => parseTeam(s, 't'),
    ),
    pure(
      'team.toml: many unknown fields',
      (n) => `[a]\nmode = "embedded"\n${Array.from({ length: count(n, 12) }, (_, i) => `x${i} = 1\n`).join('')}`,
      (s) => parseTeam(s, 't'),
    ),
    pure(
      'team.toml: many steps with an unknown field',
      (n) => `[a]\nmode = "embedded"\n${fill('[[a.dispatch_steps]]\ntool = "t"\nzz = 1\n', n)}`,
      (s) => parseTeam(s, 't'),
    ),
    pure(
      'team.toml: long multi-line array',
      (n) => `[a]\nmode = "embedded"\nargs = [\n${fill('  "x", # c\n', n)}]\n`,
      (s) => parseTeam(s, 't'),
    ),
    pure(
      'team.toml: deep inline tables',
      (n) => `[a]\nmode = "embedded"\n[[a.dispatch_steps]]\ntool = "t"\nwith = ${'{a='.repeat(n / 4)}1${'}'.repeat(n / 4)}\n`,
      (s) => parseTeam(s, 't'),
    ),
    // removeAgentSection splices the same way.
    pure(
      'team.toml: write back among many strays',
      (n) => `[k]\nmode = "embedded"\n${fill('[o]\nmode = "web"\n[[k.dispatch_steps]]\ntool = "t"\n', n)}`,
      (s) => upsertAgentSection(s, AGENT),
    ),
    pure(
      'settings.json: add to a file of many lines',
      (n) => `{\n${Array.from({ length: count(n, 12) }, (_, i) => `  "k${i}": 1,\n`).join('')}  "z": 1\n}\n`,
      (s) => addHooks(s, [ENTRY]),
    ),
    pure(
      'settings.json: remove many of ours',
      (n) => JSON.stringify({ hooks: { Stop: Array.from({ length: count(n, 90) }, () => OUR_GROUP) } }, null, 2),
      (s) => removeHooks(s),
    ),
    pure(
      'settings.json: state of many groups',
      (n) => JSON.stringify({ hooks: { Stop: Array.from({ length: count(n, 90) }, () => OUR_GROUP) } }),
      (s) => installedState(s, [ENTRY]),
    ),
    pure(
      'settings.json: deeply nested value',
      (n) => `{"a":${deep(n / 2)}}`,
      (s) => addHooks(s, [ENTRY]),
    ),
    pure(
      'opencode db: parseColumns, many columns',
      (n) => `CREATE TABLE t (${Array.from({ length: count(n, 24) }, (_, i) => `"c""${i}" text NOT NULL`).join(', ')})`,
      parseColumns,
    ),
    pure('opencode db: parseColumns, unclosed quote', (n) => `CREATE TABLE t ("${fill('a', n)} text)`, parseColumns),
    {
      name: 'opencode db: decodeRecord, many columns',
      make: (n) => {
        const buf = record(count(n, 2));
        return { bytes: buf.length, fresh: () => () => decodeRecord(buf) };
      },
    },
    pure(
      'hooks file: many lines',
      (n) => fill('{"t":1,"agent":"claude-code","payload":{"hook_event_name":"Stop"}}\n', n),
      (s) => parseHookFile('h', s),
    ),
    pure(
      'log file: claude transcript lines',
      (n) => fill(`${claudeUser('"hi"')}\n`, n),
      (s) => decodeLogFile('l', s),
    ),
    ...hookCases(),
  ];
}
