/**
 * Hook payloads for bench/linear.ts: the hub's side (JSON body → validation → mapping → store) and the reporter's
 * (stdin → parse → trim until it fits), both on wide, deep and long payloads.
 */
import { EventEmitter } from 'events';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vm from 'vm';
import { parseJson } from '../src/common/json';
import { writeDiscovery } from '../src/hub/discovery';
import { HookSource } from '../src/sources/hooks/hookSource';
import { AgentStore } from '../src/store/store';
import type { LinearCase } from './linear';
import { fill } from './linearTerminal';

const many = (n: number, per: number, item: (i: number) => string): string =>
  Array.from({ length: Math.max(1, Math.floor(n / per)) }, (_, i) => item(i)).join(',');

/** Payloads as JSON text of about n bytes: a deep one built as an object would overflow JSON.stringify. */
const SHAPES: [string, (n: number) => string][] = [
  ['wide payload', (n) => `{"hook_event_name":"Stop","session_id":"s",${many(n, 12, (i) => `"k${i}":${i}`)}}`],
  [
    'deep payload',
    (n) => `{"hook_event_name":"PostToolUse","session_id":"s","tool_response":${'{"a":'.repeat(n / 6)}1${'}'.repeat(n / 6)}}`,
  ],
  ['long reply ending in ?', (n) => `{"hook_event_name":"Stop","session_id":"s","last_assistant_message":"${fill('why ', n)}?"}`],
  [
    'question with many options',
    (n) =>
      `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"AskUserQuestion","tool_input":{"questions":[{"question":"q?","options":[${many(n, 16, (i) => `{"label":"o${i}"}`)}]}]}}`,
  ],
  ['many long strings', (n) => `{${many(n, 10_000, (i) => `"s${i}":"${'x'.repeat(9990)}"`)}}`],
];

/**
 * The hub's route for one report, the hub's parse of the body included (parseJson, before the route sees it). The
 * hub refuses bodies over 256 KB, so larger sizes stand for what a bigger limit would cost.
 */
function hubCase(name: string, shape: (n: number) => string, agent = 'claude-code'): LinearCase {
  return {
    name: `hook route: ${name}`,
    make: (n) => {
      const body = `{"v":1,"agent":"${agent}","at":${Date.now()},"pid":4242,"payload":${shape(n)}}`;
      return {
        bytes: body.length,
        fresh: () => {
          const src = new HookSource(new AgentStore(), { terminalFor: () => undefined });
          return () => {
            let parsed: unknown;
            try {
              parsed = parseJson(body);
            } catch {
              return; // the hub answers 400
            }
            void src.handle(parsed); // synchronous here: no ancestryOf (Windows only)
          };
        },
      };
    },
  };
}

/**
 * The built reporter (dist/agent-lens-report.js) evaluated in this process with a stand-in `process`: its
 * trimming is not exported, and a real process start would drown the figures. Its post goes to port 1, where
 * nothing listens, so that part fails at once and costs the same at every size.
 */
function reporter(): ((stdin: Buffer) => Promise<void>) | undefined {
  const file = [path.join(__dirname, 'agent-lens-report.js'), path.join(process.cwd(), 'dist', 'agent-lens-report.js')].find((f) =>
    fs.existsSync(f),
  );
  if (!file) return undefined;
  const body = vm.compileFunction(fs.readFileSync(file, 'utf8'), ['exports', 'require', 'module', '__filename', '__dirname', 'process'], {
    filename: file,
  });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-bench-linear-'));
  process.on('exit', () => fs.rmSync(home, { recursive: true, force: true }));
  const hubFile = path.join(home, 'hubs', 'h.json');
  writeDiscovery(hubFile, { v: 1, port: 1, token: 'bench', pid: process.pid });
  return (stdin) =>
    new Promise<void>((resolve) => {
      const input = Object.assign(new EventEmitter(), { isTTY: false });
      const fake = {
        argv: [process.execPath, file, 'claude-code'],
        env: { AGENT_LENS_HUB: hubFile },
        stdin: input,
        pid: process.pid,
        ppid: process.ppid,
        execPath: process.execPath,
        platform: process.platform,
        exit: () => resolve(),
      };
      const mod = { exports: {} };
      body(mod.exports, require, mod, file, path.dirname(file), fake);
      for (let i = 0; i < stdin.length; i += 64 * 1024) input.emit('data', stdin.subarray(i, i + 64 * 1024));
      input.emit('end');
    });
}

export function hookCases(): LinearCase[] {
  const out = SHAPES.map(([name, shape]) => hubCase(name, shape));
  out.push(
    hubCase(
      'OpenCode permission with many patterns',
      (n) => `{"type":"permission.asked","properties":{"sessionID":"s","permission":"bash","patterns":[${many(n, 8, (i) => `"p${i}"`)}]}}`,
      'opencode',
    ),
  );
  const run = reporter();
  if (!run) return out;
  for (const [name, shape] of SHAPES) {
    out.push({
      name: `reporter: ${name}`,
      // Its stdin limit: a larger payload is dropped unread.
      maxBytes: 1024 * 1024,
      make: (n) => {
        // Under the limit whatever the generator's rounding: a dropped payload would time nothing.
        let m = n;
        let stdin = Buffer.from(shape(m));
        while (stdin.length > 1024 * 1024 - 64) stdin = Buffer.from(shape((m = Math.floor(m * 0.95))));
        return { bytes: stdin.length, fresh: () => () => run(stdin) };
      },
    });
  }
  return out;
}
