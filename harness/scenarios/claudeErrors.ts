/**
 * Claude Code's error banners that are not "● API Error: …" (issue 28, class 3): the API refuses the key (HTTP 401)
 * or does not know the model (HTTP 404). The turn failed; the screen must say so, not idle.
 */
import { type Scenario, screen, submit, wait, waitText } from '../scenario';
import { ready, startup, working } from './claudeCues';

const A = 'claude-code';

/** Every request gets this HTTP error; the scenario waits for the banner, then rests six seconds on it. */
function errorScenario(o: {
  id: string;
  description: string;
  error: { status: number; errorType: string; message: string };
  banner: RegExp;
  timeoutMs: number;
  workingCue?: string;
  failedCue: string;
}): Scenario {
  return {
    id: o.id,
    agent: A,
    description: o.description,
    mock: { title: 'Summarise', turns: [{ type: 'error', ...o.error, sticky: true }] },
    steps: [ready, wait(1500), ...submit('summarise the README'), waitText(o.banner, o.timeoutMs, 'error visible'), wait(6000)],
    tailMs: 0,
    expect: [...startup(), working(o.workingCue), { state: 'failed', from: screen(o.banner), cue: o.failedCue }],
  };
}

export const claudeErrorScenarios: Scenario[] = [
  errorScenario({
    id: '26-auth-401',
    description:
      'Every request gets HTTP 401 authentication_error ("invalid x-api-key"): Claude retries ten times ("✻ 401 invalid x-api-key · retrying in 11s · attempt 7/10"), then shows the error under the turn.',
    error: { status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' },
    banner: /Invalid API key|\/login|API Error/,
    timeoutMs: 400_000,
    workingCue: '"✻ 401 invalid x-api-key · retrying in 11s · attempt 7/10"',
    failedCue: 'the login banner under the turn',
  }),
  errorScenario({
    id: '27-model-404',
    description: 'Every request gets HTTP 404 not_found_error ("model: …"): Claude says the selected model has an issue.',
    error: { status: 404, errorType: 'not_found_error', message: 'model: claude-opus-5-5' },
    banner: /selected model|API Error/,
    timeoutMs: 60_000,
    failedCue: 'the model banner under the turn',
  }),
];
