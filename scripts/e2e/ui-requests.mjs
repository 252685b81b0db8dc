// The UI requests the e2e suite makes of the runner (test/e2e/suite/util.ts ui()): screenshots of the page or
// of some elements, and actions a user would take (wait for, fill, press, type, click, hover), via playwright.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { say, sleep } from './log.mjs';

// A screenshot of the page, or of the union of the boxes of the first selector in `clip` that matches a
// visible element (plus `pad` pixels), e.g. the status bar items or a notification toast.
export async function screenshot(page, artifacts, name, clip, pad = 0) {
  const file = join(artifacts, `${name}.png`);
  const view = page.viewportSize() ?? { width: 1600, height: 1000 };
  for (const sel of clip === undefined ? [] : Array.isArray(clip) ? clip : [clip]) {
    const boxes = [];
    for (const el of await page.locator(sel).all()) {
      const b = await el.boundingBox().catch(() => null);
      if (b && b.width > 0 && b.height > 0) boxes.push(b);
    }
    if (!boxes.length) continue;
    const x = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b.x)) - pad));
    const y = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b.y)) - pad));
    const right = Math.min(view.width, Math.ceil(Math.max(...boxes.map((b) => b.x + b.width)) + pad));
    const bottom = Math.min(view.height, Math.ceil(Math.max(...boxes.map((b) => b.y + b.height)) + pad));
    await page.screenshot({ path: file, clip: { x, y, width: right - x, height: bottom - y } });
    return file;
  }
  if (clip !== undefined) say(`screenshot ${name}: nothing visible matches ${JSON.stringify(clip)}; taking the whole page`);
  await page.screenshot({ path: file });
  return file;
}

// What the suite may ask for besides a picture (test/e2e/suite/util.ts ui()): wait for an element (with a
// text), fill an input, press keys, type, click. Playwright drives the page as a user would.
export async function uiAction(page, a) {
  // `optional`: a step that may find nothing to do (expand a group that is open already).
  if (a.optional) return uiAction(page, { ...a, optional: false, timeout: a.timeout ?? 2000 }).catch(() => undefined);
  const timeout = a.timeout ?? 15000;
  const loc = (sel) => {
    const l = page.locator(sel);
    return (a.hasText !== undefined ? l.filter({ hasText: a.hasText }) : l).first();
  };
  if (a.waitFor) await loc(a.waitFor).waitFor({ state: a.state ?? 'visible', timeout });
  else if (a.fill) await loc(a.fill).fill(a.text ?? '', { timeout });
  else if (a.press) await (a.selector ? loc(a.selector).press(a.press, { timeout }) : page.keyboard.press(a.press));
  else if (a.type !== undefined) await page.keyboard.type(a.type, { delay: 15 });
  else if (a.click) await loc(a.click).click({ timeout });
  else if (a.hover) await loc(a.hover).hover({ timeout });
  else if (a.sleep) await sleep(a.sleep);
  else throw new Error(`unknown action ${JSON.stringify(a)}`);
}

// A request file holds a timestamp (a plain screenshot) or JSON {actions?, shot?, clip?, pad?, after?}:
// the actions, then the screenshot NAME.png (unless shot is false), then the actions in `after`. A failure
// is written to NAME.err before NAME.req is removed, so the suite can fail with the reason.
export async function serveRequest(page, artifacts, reqDir, f) {
  const name = basename(f, '.req');
  const file = join(reqDir, f);
  try {
    if (!/^[\w.-]+$/.test(name)) throw new Error(`bad request name ${JSON.stringify(name)}`);
    const text = readFileSync(file, 'utf8').trim();
    const spec = text.startsWith('{') ? JSON.parse(text) : {};
    for (const a of spec.actions ?? []) await uiAction(page, a);
    if (spec.shot !== false) await screenshot(page, artifacts, name, spec.clip, spec.pad);
    for (const a of spec.after ?? []) await uiAction(page, a);
    say(spec.shot !== false ? `screenshot ${name}.png (requested by suite)` : `ui request ${name} done`);
  } catch (err) {
    say(`request ${name} failed: ${err.message.split('\n')[0]}`);
    // What the page looked like when it failed, for the reader of the artifacts.
    await page.screenshot({ path: join(artifacts, `${name}-failed.png`) }).catch(() => undefined);
    try {
      writeFileSync(join(reqDir, `${name}.err`), `${err.message}\n`);
    } catch {
      /* the suite then only sees the request gone */
    }
  }
  rmSync(file, { force: true });
}
