import type { Message } from './message';
import type { PostOptions } from './post';

/** Sends one message on one channel; rejects with a SendError. `dispose` ends what a send left running. */
export type Send = ((m: Message) => Promise<void>) & { dispose?(): void };

export interface SenderOptions {
  post?: PostOptions;
  /** Where what a program printed goes (the log). */
  output(text: string): void;
  /** The environment programs run in (the tests' own D-Bus session). */
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** A desktop notification with a click URI was clicked where only the sender learns of it (Linux). */
  onClick?(uri: string): void;
}
