/**
 * Expected-state anchors: resolves a scenario's segments ({state, from, to} with screen/mark/exit anchors)
 * to times on a recording's clock. Used by the driver right after a run and by `check --relabel`.
 */
import type { AgentName } from './homes';
import type { Anchor, Segment, State } from './scenario';
import type { ScreenFrame } from './screen';

/** Written to meta.json as `harness`; outputs without it are never overwritten unless `force`. */
export const HARNESS_ID = 'agent-lens/harness@1';

const r3 = (x: number) => Math.round(x * 1000) / 1000;

export interface Mark {
  t: number;
  label: string;
  [k: string]: unknown;
}

export interface ExpectedSegment {
  t_from: number;
  t_to: number;
  state: State;
  agent: AgentName;
  cue: string;
  accept?: State[];
  note?: string;
}

export interface ResolveCtx {
  frames: ScreenFrame[];
  marks: Mark[];
  exitT?: number;
  endT: number;
  agent: AgentName;
}

function countMatches(re: RegExp, text: string): number {
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  return (text.match(g) ?? []).length;
}

function anchorText(a: Anchor): string {
  if ('screen' in a) return `screen ${String(a.screen)}${a.count ? ` x${a.count}` : ''}`;
  if ('gone' in a) return `gone ${String(a.gone)}`;
  if ('title' in a) return `title ${String(a.title)}`;
  if ('mark' in a) return `mark ${a.mark}`;
  if ('exit' in a) return 'exit';
  if ('end' in a) return 'end';
  return 'start';
}

function resolveAnchor(a: Anchor, after: number, c: ResolveCtx): number | undefined {
  const plus = 'plusMs' in a && a.plusMs ? a.plusMs / 1000 : 0;
  let t: number | undefined;
  if ('start' in a) t = 0;
  else if ('end' in a) t = c.endT;
  else if ('exit' in a) t = c.exitT;
  else if ('mark' in a) t = c.marks.find((m) => m.label === a.mark && m.t >= after - 1e-9)?.t;
  else {
    // the frame visible at time `after` counts too (the screen may already show it)
    let i = 0;
    while (i + 1 < c.frames.length && c.frames[i + 1]!.t <= after) i++;
    for (; i < c.frames.length; i++) {
      const f = c.frames[i]!;
      const hit =
        'screen' in a ? countMatches(a.screen, f.text) >= (a.count ?? 1) : 'gone' in a ? !a.gone.test(f.text) : a.title.test(f.title);
      if (hit) {
        t = Math.max(f.t, after);
        break;
      }
    }
  }
  return t === undefined ? undefined : r3(Math.min(c.endT, t + plus));
}

export function resolveSegments(expect: Segment[], c: ResolveCtx): { segments: ExpectedSegment[]; problems: string[] } {
  const problems: string[] = [];
  let cursor = 0;
  const froms: number[] = [];
  const tos: Array<number | undefined> = [];
  for (let i = 0; i < expect.length; i++) {
    const s = expect[i]!;
    let f = resolveAnchor(s.from, cursor, c);
    if (f === undefined) {
      problems.push(`segment ${i} (${s.state}): anchor ${anchorText(s.from)} not found after t=${cursor}`);
      f = cursor;
    }
    froms.push(f);
    cursor = f;
    if (s.to) {
      let t = resolveAnchor(s.to, cursor, c);
      if (t === undefined) {
        problems.push(`segment ${i} (${s.state}): end anchor ${anchorText(s.to)} not found after t=${cursor}`);
        t = undefined;
      } else cursor = t;
      tos.push(t);
    } else tos.push(undefined);
  }
  const segments: ExpectedSegment[] = [];
  for (let i = 0; i < expect.length; i++) {
    const s = expect[i]!;
    const from = froms[i]!;
    const to = tos[i] ?? (i + 1 < expect.length ? froms[i + 1]! : c.endT);
    if (to < from) problems.push(`segment ${i} (${s.state}) ends before it starts (${from} > ${to})`);
    if (to === from) problems.push(`segment ${i} (${s.state}) is empty at t=${from}`);
    const seg: ExpectedSegment = { t_from: from, t_to: to, state: s.state, agent: c.agent, cue: s.cue };
    if (s.accept?.length) seg.accept = s.accept;
    if (s.note) seg.note = s.note;
    segments.push(seg);
  }
  if (segments.length) {
    if (segments[0]!.t_from !== 0) problems.push(`segments start at ${segments[0]!.t_from}, not 0`);
    const last = segments[segments.length - 1]!;
    if (Math.abs(last.t_to - c.endT) > 0.01) problems.push(`segments end at ${last.t_to}, recording ends at ${c.endT}`);
    for (let i = 1; i < segments.length; i++)
      if (Math.abs(segments[i]!.t_from - segments[i - 1]!.t_to) > 0.001) problems.push(`gap/overlap between segments ${i - 1} and ${i}`);
  }
  return { segments, problems };
}
