/**
 * Claude Code's error banners that are not "● API Error: …" (issue 28, class 3): the API refuses the key (HTTP 401)
 * or does not know the model (HTTP 404). The turn failed; the screen must say so, not idle.
 */
import { type Scenario, screen, submit, wait, waitText } from '../scenario';
import { ready, startup, working } from './claudeCues';

const A = 'claude-code';

export const claudeErrorScenarios: Scenario[] = [
  {
    id: '26-auth-401',
    agent: A,
    description:
      'Every request gets HTTP 401 authentication_error ("invalid x-api-key"): Claude retries ten times ("✻ 401 invalid x-api-key · retrying in 11s · attempt 7/10"), then shows the error under the turn.',
    mock: {
      title: 'Summarise',
      turns: [{ type: 'error', status: 401, errorType: 'authentication_error', message: 'invalid x-api-key', sticky: true }],
    },
    steps: [
      ready,
      wait(1500),
      ...submit('summarise the README'),
      waitText(/Invalid API key|\/login|API Error/, 400_000, 'error visible'),
      wait(6000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working('"✻ 401 invalid x-api-key · retrying in 11s · attempt 7/10"'),
      { state: 'failed', from: screen(/Invalid API key|\/login|API Error/), cue: 'the login banner under the turn' },
    ],
  },
  {
    id: '27-model-404',
    agent: A,
    description: 'Every request gets HTTP 404 not_found_error ("model: …"): Claude says the selected model has an issue.',
    mock: {
      title: 'Summarise',
      turns: [{ type: 'error', status: 404, errorType: 'not_found_error', message: 'model: claude-opus-5-5', sticky: true }],
    },
    steps: [
      ready,
      wait(1500),
      ...submit('summarise the README'),
      waitText(/selected model|API Error/, 60_000, 'error visible'),
      wait(6000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'failed', from: screen(/selected model|API Error/), cue: 'the model banner under the turn' },
    ],
  },
];
