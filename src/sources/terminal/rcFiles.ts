import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAliases, type Resolver } from './readPolicy';

/** Shell start-up files whose aliases and functions may start an agent. */
const RC_FILES = ['.bashrc', '.bash_aliases', '.bash_profile', '.zshrc', '.zsh_aliases', '.config/fish/config.fish', '.profile'];

/** How long the aliases read from rc files are trusted before they are read again. */
const ALIAS_TTL_MS = 30_000;

/** Reads the user's shell start-up files and the scripts a command line runs, for the read policy. */
export class RcFiles {
  private cache: { at: number; map: Map<string, string> } | undefined;

  constructor(private readonly home: string = os.homedir()) {}

  resolver(cwd: string | undefined): Resolver {
    return {
      alias: (name) => this.aliases().get(name),
      script: (word, dir) => {
        const base = path.resolve(cwd ?? this.home, dir?.replace(/^~(?=\/|$)/, this.home) ?? '.');
        return readHead(path.resolve(base, word.replace(/^~(?=\/)/, this.home)), 64 * 1024);
      },
    };
  }

  /** Aliases from the user's rc files, re-read at most every 30 s. */
  private aliases(): Map<string, string> {
    const now = Date.now();
    if (this.cache && now - this.cache.at < ALIAS_TTL_MS) return this.cache.map;
    const map = new Map<string, string>();
    for (const rel of RC_FILES) {
      try {
        const text = fs.readFileSync(path.join(this.home, rel), 'utf8');
        for (const [k, v] of parseAliases(text)) if (!map.has(k)) map.set(k, v);
      } catch {
        // Missing rc files are normal.
      }
    }
    this.cache = { at: now, map };
    return map;
  }
}

/** The first `max` bytes of a regular file of at most 1 MB, or undefined. */
function readHead(file: string, max: number): string | undefined {
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > 1024 * 1024) return undefined;
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(Math.min(st.size, max));
      fs.readSync(fd, buf, 0, buf.length, 0);
      return buf.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}
