import { agentFromCommandLine, tokenize } from '../../detect/commandLine';
import { platformPath } from '../../common/paths';
import type { AgentKind } from '../../common/agents';

/**
 * Which shell executions Agent Lens reads. VS Code keeps everything a read stream delivered in memory
 * until the command ends, so reading a dev server that runs for hours would grow without bound. The rule:
 *
 * 1. the command line names an agent, directly or through env/sudo/npx/pnpm dlx/node … (`agentFromCommandLine`);
 * 2. its first word is a shell alias or function whose body names an agent (read from the user's rc files);
 * 3. its first word is a script (a path, or a file in the working folder with a shell extension) whose
 *    first 64 KB name an agent;
 * 4. the command line is empty or low-confidence: VS Code could not tell what runs, so we cannot rule an
 *    agent out.
 *
 * Everything else is not read; the process-tree scan still watches those terminals, so an agent started
 * in a way none of the rules sees is found as a process (agent + working/exited, source `process`).
 */
export interface ReadDecision {
  read: boolean;
  agent?: AgentKind;
  reason: string;
}

export interface Resolver {
  /** Alias or function body for a command name, from the user's shell start-up files. */
  alias(name: string): string | undefined;
  /** The first 64 KB of a script the command runs, when the word is a readable file (`dir`: after a `cd`). */
  script(word: string, dir?: string): string | undefined;
}

export const noResolver: Resolver = { alias: () => undefined, script: () => undefined };

const SCRIPT_WORD = /(?:^\.{0,2}\/|\.(?:sh|bash|zsh|fish|ps1|cmd|bat)$)/i;

export function readDecision(
  commandLine: string | undefined,
  confidence: 'low' | 'medium' | 'high' | undefined,
  resolver: Resolver = noResolver,
): ReadDecision {
  const line = (commandLine ?? '').trim();
  const direct = agentFromCommandLine(line);
  if (direct) return { read: true, agent: direct.agent, reason: `command line names ${direct.agent} ("${direct.token}")` };
  if (!line || confidence === 'low') return { read: true, reason: line ? 'command line is low-confidence' : 'command line unknown' };
  // Check the first word of every segment of `a && b; c`, following `cd DIR` for relative scripts.
  let cdDir: string | undefined;
  for (const seg of segments(line)) {
    const words = seg.filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    const first = words[0];
    if (!first) continue;
    if (first === 'cd' && words[1]) {
      // `cd D:\work` after `cd C:\x` is D:\work, not C:\x/D:\work: absolute by the shell's platform's rules.
      cdDir = cdDir && !platformPath().isAbsolute(words[1]) && !words[1].startsWith('~') ? `${cdDir}/${words[1]}` : words[1];
      continue;
    }
    const body = resolver.alias(first);
    if (body) {
      const viaAlias = agentFromCommandLine(body) ?? bodyLines(body);
      if (viaAlias) return { read: true, agent: viaAlias.agent, reason: `alias ${first} runs ${viaAlias.agent}` };
    }
    const runner = /^(?:bash|sh|zsh|source|\.)$/.test(first);
    const scriptWord = runner ? words[1] : first;
    if (scriptWord && (runner || SCRIPT_WORD.test(scriptWord))) {
      const text = resolver.script(scriptWord, cdDir);
      const viaScript = text ? bodyLines(text) : undefined;
      if (viaScript) return { read: true, agent: viaScript.agent, reason: `script ${scriptWord} runs ${viaScript.agent}` };
    }
  }
  return { read: false, reason: 'no agent in the command line, its aliases or scripts' };
}

function segments(line: string): string[][] {
  const out: string[][] = [[]];
  for (const w of tokenize(line)) {
    if (w === '\u0000') out.push([]);
    else out[out.length - 1].push(w);
  }
  return out.filter((s) => s.length > 0);
}

/** The first line of a script or function body that starts an agent. Comments and echo lines do not count. */
function bodyLines(text: string): { agent: AgentKind } | undefined {
  for (const raw of text.slice(0, 64 * 1024).split(/\r?\n/)) {
    const line = raw.replace(/^\s*(?:exec\s+)?/, '');
    if (!line || line.startsWith('#') || /^(?:echo|printf)\b/.test(line)) continue;
    const m = agentFromCommandLine(line);
    if (m) return { agent: m.agent };
  }
  return undefined;
}

/**
 * Aliases and functions from bash/zsh/fish start-up files. Line-based and bounded: a function body is
 * read until a line that starts with `}` or 200 lines, whichever comes first.
 */
/**
 * A one-line body's closing `}` (then an optional `;`): found by trimming, because /\}\s*;?\s*$/ backtracks
 * quadratically over a long run of spaces that does not end the line.
 */
function closingBrace(s: string): { closed: boolean; body: string } {
  let t = s.trimEnd();
  if (t.endsWith(';')) t = t.slice(0, -1).trimEnd();
  return t.endsWith('}') ? { closed: true, body: t.slice(0, -1) } : { closed: false, body: s };
}

export function parseAliases(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = text.slice(0, 512 * 1024).split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    let m = /^alias\s+(?:-g\s+)?([\w.:-]+)=(?:'([^']*)'|"([^"]*)"|(\S+))/.exec(line);
    if (m) {
      out.set(m[1], m[2] ?? m[3] ?? m[4] ?? '');
      continue;
    }
    m = /^(?:alias|abbr\s+(?:-a|--add))\s+([\w.:-]+)\s+(?:'([^']*)'|"([^"]*)"|(.+))$/.exec(line);
    if (m) {
      out.set(m[1], m[2] ?? m[3] ?? m[4] ?? '');
      continue;
    }
    m = /^(?:function\s+([\w.:-]+)(?:\s*\(\))?|([\w.:-]+)\s*\(\))\s*\{?(.*)$/.exec(line);
    if (m) {
      const name = m[1] ?? m[2];
      const first = closingBrace(m[3]);
      const body: string[] = [first.body];
      if (!first.closed) {
        for (let k = i + 1; k < lines.length && k < i + 200; k++) {
          if (/^\s*\}/.test(lines[k]) || /^\s*end\s*$/.test(lines[k])) break;
          body.push(lines[k]);
        }
      }
      out.set(name, body.join('\n'));
    }
  }
  return out;
}
