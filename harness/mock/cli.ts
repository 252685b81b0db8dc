/**
 * Standalone scripted mock server (shared by mock-anthropic / the generic mock entry).
 *
 *   node mock.js --protocol anthropic|responses|chat|gemini --script <file.json> [--port-file <path>] [--log <path>] [--port N] [--verbose]
 *
 * <file.json> is a MockScript ({"title"?, "turns":[…]}) or a scenario JSON with a "mock" field
 * (see `record --export-mock-scripts`). Listens on 127.0.0.1 only. The chosen port is written to
 * --port-file (atomically) and printed as `listening <port>` on stdout. SIGTERM/SIGINT stop it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseCommandLine } from '../../src/cli/args';
import { createAnthropicMock } from './anthropic';
import { type MockServer, loadScript } from './common';
import { createChatMock } from './openai-chat';
import { createResponsesMock } from './openai-responses';
import { createGeminiMock } from './gemini';

export async function mockCliMain(argv: string[], defaultProtocol?: string): Promise<MockServer> {
  const { values: o } = parseCommandLine(
    argv,
    {
      script: { type: 'string' },
      protocol: { type: 'string' },
      'port-file': { type: 'string' },
      log: { type: 'string' },
      port: { type: 'string' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean' },
    },
    (m) => new Error(m),
  );
  if (o.help || !o.script) {
    process.stdout.write(
      'usage: mock --script <file.json> [--protocol anthropic|responses|chat|gemini] [--port-file <path>] [--log <path>] [--port N] [--verbose]\n',
    );
    process.exit(o.help ? 0 : 2);
  }
  const protocol = String(o.protocol ?? defaultProtocol ?? 'anthropic');
  const script = loadScript(String(o.script));
  const opts = { script, logFile: o.log ? String(o.log) : undefined, port: o.port ? Number(o.port) : 0, verbose: !!o.verbose };
  const mock =
    protocol === 'anthropic'
      ? createAnthropicMock(opts)
      : protocol === 'responses'
        ? createResponsesMock(opts)
        : protocol === 'chat'
          ? createChatMock(opts)
          : protocol === 'gemini'
            ? createGeminiMock(opts)
            : undefined;
  if (!mock) throw new Error(`unknown protocol ${protocol}`);
  const port = await mock.listen();
  if (o['port-file']) {
    const pf = String(o['port-file']);
    fs.mkdirSync(path.dirname(path.resolve(pf)), { recursive: true });
    fs.writeFileSync(`${pf}.tmp`, String(port));
    fs.renameSync(`${pf}.tmp`, pf);
  }
  process.stdout.write(`listening ${port}\n`);
  const stop = () => {
    void mock.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return mock;
}
