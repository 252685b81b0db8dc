#!/usr/bin/env node
// Renders the SVG sources in media/ to the PNGs the marketplace and the README need, with the headless
// Chromium the e2e suite uses (scripts/e2e/setup-code-server.sh installs it; playwright-core drives it):
//
//   media/icon.svg          -> media/icon.png          128x128, the extension's icon (package.json "icon")
//   media/how-it-works.svg  -> media/how-it-works.png  the data-flow picture in README.md (vsce refuses SVG
//                                                      images in a README, so it shows the PNG)
//
//   node scripts/render-media.mjs [--check]     --check: only verify the PNGs exist and have the right size
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.AGENT_LENS_E2E_CHROMIUM || '/usr/bin/chromium';
const JOBS = [
  { svg: 'media/icon.svg', png: 'media/icon.png', width: 128, height: 128, transparent: true },
  { svg: 'media/how-it-works.svg', png: 'media/how-it-works.png', scale: 1.5 },
];

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file) {
  const b = readFileSync(file);
  if (b.length < 24 || b.toString('latin1', 1, 4) !== 'PNG') throw new Error(`${file} is not a PNG`);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** The SVG's own width and height attributes. */
function svgSize(text, file) {
  const m = /<svg\b[^>]*\bwidth="(\d+)"[^>]*\bheight="(\d+)"/.exec(text);
  if (!m) throw new Error(`${file}: the <svg> element needs width and height attributes`);
  return { width: Number(m[1]), height: Number(m[2]) };
}

const check = process.argv.includes('--check');
if (check) {
  let bad = 0;
  for (const j of JOBS) {
    const file = join(ROOT, j.png);
    if (!existsSync(file)) {
      console.error(`missing ${j.png}: run node scripts/render-media.mjs`);
      bad++;
      continue;
    }
    const s = pngSize(file);
    const want = j.width ? { width: j.width, height: j.height } : undefined;
    if (want && (s.width !== want.width || s.height !== want.height)) {
      console.error(`${j.png} is ${s.width}x${s.height}, not ${want.width}x${want.height}`);
      bad++;
    } else console.log(`${j.png}: ${s.width}x${s.height}`);
  }
  process.exit(bad ? 1 : 0);
}

if (!existsSync(CHROMIUM)) {
  console.error(`render-media: no Chromium at ${CHROMIUM} (scripts/e2e/setup-code-server.sh installs it, or set AGENT_LENS_E2E_CHROMIUM)`);
  process.exit(2);
}
const pw = join(ROOT, 'node_modules', 'playwright-core', 'index.js');
if (!existsSync(pw)) {
  console.error('render-media: playwright-core is not installed (npm install)');
  process.exit(2);
}
const { chromium } = await import(pathToFileURL(pw).href).then((m) => m.default ?? m);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
  ],
});
try {
  for (const j of JOBS) {
    const text = readFileSync(join(ROOT, j.svg), 'utf8');
    const own = svgSize(text, j.svg);
    const width = j.width ?? own.width;
    const height = j.height ?? own.height;
    const scale = j.scale ?? 1;
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: scale });
    const page = await context.newPage();
    // Nothing but the SVG inline: no file, no network.
    await page.route('**/*', (r) => r.abort());
    const svg = text.replace(/<svg\b/, `<svg style="display:block;width:${width}px;height:${height}px"`);
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
    await page.screenshot({ path: join(ROOT, j.png), omitBackground: !!j.transparent, clip: { x: 0, y: 0, width, height } });
    await context.close();
    const s = pngSize(join(ROOT, j.png));
    console.log(`${j.svg} -> ${j.png} (${s.width}x${s.height})`);
  }
} finally {
  await browser.close();
}
