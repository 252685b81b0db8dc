// File helpers of the E2E runner: find files under a folder, read JSON, copy what exists.
import { cpSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { say } from './log.mjs';

export function findFiles(dir, pred) {
  const out = [];
  try {
    for (const ent of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, ent.name);
      if (ent.isDirectory()) out.push(...findFiles(p, pred));
      else if (pred(ent.name)) out.push(p);
    }
  } catch {
    /* missing */
  }
  return out;
}

export function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

export function copyIfExists(src, dst) {
  try {
    if (existsSync(src)) cpSync(src, dst, { recursive: true, dereference: false });
  } catch (err) {
    say(`could not copy ${src}: ${err.message}`);
  }
}
