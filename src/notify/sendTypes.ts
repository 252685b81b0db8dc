import type { Message } from './message';
import type { PostOptions } from './post';

/** Sends one message on one channel; rejects with a SendError. */
export type Send = (m: Message) => Promise<void>;

export interface SenderOptions {
  post?: PostOptions;
  /** Where what a program printed goes (the log). */
  output(text: string): void;
  /** The environment programs run in (the tests' own D-Bus session). */
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}
