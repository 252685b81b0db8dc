/**
 * `vscode:uninstall` (package.json): VS Code runs this with Node once the extension is fully uninstalled (after
 * the restart that follows), without the extension host, so it must not import `vscode`. It removes the agent
 * hooks and plugins Agent Lens installed (src/integrations/install/uninstallAll.ts). It always exits 0 and never
 * throws: nobody is there to see a failure, and VS Code must go on removing the extension. What it did goes
 * to stdout/stderr for VS Code's log. It leaves `~/.agent-lens` (the reporter there exits at once outside VS
 * Code, so a hook it could not remove stays harmless; another VS Code flavour may still use it).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { uninstallAll } from '../integrations/install/uninstallAll';

/** The Hermes plugin's file names, from the extension folder this script sits in (dist/..). */
function hermesSources(): string[] {
  const dir = path.join(__dirname, '..', 'resources', 'hermes', 'agent-lens');
  try {
    return fs
      .readdirSync(dir)
      .filter((f) => /\.(py|yaml)$/.test(f))
      .map((f) => path.join(dir, f));
  } catch {
    return []; // the plugin folder is ours alone: its marked files are removed anyway
  }
}

try {
  const r = uninstallAll(process.env, os.homedir(), hermesSources());
  for (const p of r.removed) console.log(`agent-lens uninstall: removed Agent Lens hooks from ${p}`);
  for (const f of r.failed) console.error(`agent-lens uninstall: could not remove Agent Lens hooks from ${f.path}: ${f.error}`);
} catch (e) {
  console.error(`agent-lens uninstall: ${e instanceof Error ? e.message : String(e)}`);
}
process.exitCode = 0;
