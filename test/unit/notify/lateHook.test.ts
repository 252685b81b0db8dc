import * as assert from 'assert';
import type { NotifyFanout } from '../../../src/notify/fanout';
import { notifyWaits } from '../../../src/notify/fromStore';
import type { Report } from '../../../src/hooks/report';
import { AgentStore } from '../../../src/store/store';
import { FakeScheduler } from '../fakeScheduler';
import { eventOf, playReports, recordedSession } from './recordedHooks';

/**
 * The seed's 21-second rule, replayed from recorded Claude Code 2.1.328 sessions under `agent-lens serve` (hooks
 * only): PermissionRequest fires as the dialog opens, so the push comes 15 s after the dialog appeared; a hook table
 * with only Notification(permission_prompt), which fires 6.0 s after the dialog opens, pushes at about 21 s.
 */
describe('the late permission hook: 15 s after the report is 21 s after the dialog', () => {
  function pushes(name: string, keep: (r: Report) => boolean) {
    const rec = recordedSession(name);
    const sched = new FakeScheduler();
    const store = new AgentStore({ clock: sched });
    const at: number[] = [];
    const fanout = { notify: () => void at.push(sched.now()), wants: () => false } as unknown as NotifyFanout;
    const n = notifyWaits(store, fanout, sched, { delaySeconds: () => 15, anywhere: true });
    sched.advance(rec.t0 - sched.now());
    const reports = rec.reports.filter(keep);
    playReports(reports, store, sched);
    sched.advance(60_000);
    n.dispose();
    const dialog = rec.t0 + rec.expected.find((e) => e.state === 'waiting')!.t_from * 1000;
    const first = (event: string) => reports.find((r) => eventOf(r) === event)!.at;
    return { afterDialog: at.map((t) => Math.round((t - dialog) / 100) / 10), at, first };
  }
  const withoutPermissionRequest = (r: Report) => eventOf(r) !== 'PermissionRequest';

  it('a dialog left open (denied, which no hook reports): at 15 s with PermissionRequest, at 21 s with only Notification', () => {
    const both = pushes('05-bash-permission-deny', () => true);
    assert.deepStrictEqual(both.afterDialog, [15.1]);
    assert.deepStrictEqual(both.at, [both.first('PermissionRequest') + 15_000]);
    const late = pushes('05-bash-permission-deny', withoutPermissionRequest);
    assert.deepStrictEqual(late.afterDialog, [21.1]);
    assert.deepStrictEqual(late.at, [late.first('Notification') + 15_000], '15 s after the report');
  });

  it('a dialog approved 20 s after it opened: pushed at 15 s with PermissionRequest, never with only the late hook', () => {
    assert.deepStrictEqual(pushes('04-bash-permission-approve', () => true).afterDialog, [15.1]);
    assert.deepStrictEqual(pushes('04-bash-permission-approve', withoutPermissionRequest).afterDialog, []);
  });
});
