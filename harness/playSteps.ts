/**
 * Plays a scenario's steps on a recorded PTY run: keys and text typed, waits on the screen, on the mock's
 * requests or on the exit. A step that fails is a problem of the run; unless it is optional, the rest is skipped.
 */
import { QUIT, keyBytes } from './agentControls';
import type { MockServer } from './mock/common';
import { type PtyRun, sleep } from './ptyRun';
import type { Scenario, Step } from './scenario';

export interface StepContext {
  run: PtyRun;
  scenario: Scenario;
  mock: MockServer;
  problems: string[];
}

/** Plays every step until one fails, the CLI exits before a step that needs it, or the scenario's time is up. */
export async function playSteps(c: StepContext): Promise<{ aborted: boolean }> {
  const deadline = c.run.t0 + (c.scenario.timeoutMs ?? 240_000);
  for (const s of c.scenario.steps) {
    if (Date.now() > deadline) {
      c.problems.push('scenario timeout');
      return { aborted: true };
    }
    if (c.run.exitInfo && s.do !== 'waitExit' && s.do !== 'wait' && s.do !== 'mark') {
      c.problems.push(`process exited before step ${JSON.stringify({ ...s, re: 're' in s ? String(s.re) : undefined })}`);
      return { aborted: true };
    }
    if (!(await runStep(c, s))) return { aborted: true };
  }
  return { aborted: false };
}

/** One step; false when it failed and was not optional. */
async function runStep(c: StepContext, s: Step): Promise<boolean> {
  const { run } = c;
  switch (s.do) {
    case 'type':
      if (s.mark) run.mark(s.mark, { text: s.text });
      await typeText(run, s.text, s.charDelayMs);
      return true;
    case 'enter':
      if (s.mark) run.mark(s.mark);
      run.write('\r');
      return true;
    case 'key':
      if (s.mark) run.mark(s.mark, { key: s.key });
      for (let i = 0; i < (s.times ?? 1); i++) {
        run.write(keyBytes(s.key, run.appCursor()));
        if ((s.times ?? 1) > 1) await sleep(120);
      }
      return true;
    case 'wait':
      await sleep(s.ms);
      if (s.mark) run.mark(s.mark);
      return true;
    case 'mark':
      if (s.mark) run.mark(s.mark);
      return true;
    case 'call': {
      if (s.mark) run.mark(s.mark);
      const problem = await s.fn({ write: (data) => run.write(data) }).catch((e: Error) => e.message);
      if (problem) c.problems.push(`${s.mark ?? 'call'}: ${problem}`);
      return !problem;
    }
    case 'quit':
      if (s.mark) run.mark(s.mark);
      for (const q of QUIT[c.scenario.agent]) await runStep(c, q);
      return true;
    default:
      return waitStep(c, s);
  }
}

async function typeText(run: PtyRun, text: string, charDelayMs: number | undefined): Promise<void> {
  if (!charDelayMs) return run.write(text);
  for (const ch of text) {
    run.write(ch);
    await sleep(charDelayMs);
  }
}

/** The steps that wait: for text on screen (or its going), for the mock's requests, for the exit. */
async function waitStep(c: StepContext, s: Extract<Step, { do: 'waitText' | 'waitGone' | 'waitRequests' | 'waitExit' }>): Promise<boolean> {
  const { run, problems } = c;
  switch (s.do) {
    case 'waitText':
    case 'waitGone': {
      const want = s.do === 'waitText';
      if (await run.waitFor(() => s.re.test(run.screenText()) === want, s.timeoutMs ?? 30_000)) {
        run.mark(s.mark ?? `${want ? 'saw' : 'gone'} ${String(s.re)}`);
        return true;
      }
      problems.push(`${s.do} ${String(s.re)} timed out after ${s.timeoutMs ?? 30_000} ms${s.mark ? ` (${s.mark})` : ''}`);
      run.mark(`timeout ${String(s.re)}`);
      return !!s.optional;
    }
    case 'waitRequests':
      if (await c.mock.waitAgentRequests(s.count, s.timeoutMs ?? 30_000)) {
        run.mark(s.mark ?? `agent request #${s.count}`);
        return true;
      }
      problems.push(`waitRequests ${s.count} timed out (got ${c.mock.agentRequests})`);
      return !!s.optional;
    case 'waitExit':
      if (await Promise.race([run.exited.then(() => true), sleep(s.timeoutMs ?? 15_000).then(() => false)])) {
        if (s.mark) run.mark(s.mark);
        return true;
      }
      problems.push(`process did not exit within ${s.timeoutMs ?? 15_000} ms`);
      return !!s.optional;
  }
}
