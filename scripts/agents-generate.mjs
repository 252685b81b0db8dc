// npm run agents:generate, step 1: the lists of agents that code holds as source (test/unit/agents/generate.ts),
// written from the folders of src/agents before anything is built, so a folder added or removed never stops it.
// The npm script then builds and lets the registry test rewrite package.json's switch and the README's table.
import { buildSync } from 'esbuild';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = buildSync({
  entryPoints: [path.join(root, 'test/unit/agents/generate.ts')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  write: false,
});
const mod = { exports: {} };
new Function('module', 'exports', 'require', built.outputFiles[0].text)(mod, mod.exports, createRequire(import.meta.url));
for (const [rel, text] of Object.entries(mod.exports.generatedFiles(root))) {
  const file = path.join(root, rel);
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) continue;
  fs.writeFileSync(file, text);
  console.log(`wrote ${rel}`);
}
