/** A minimal event emitter shaped like vscode.EventEmitter, so pure modules can offer events. */
export type Listener<T> = (e: T) => void;
export interface Disposable {
  dispose(): void;
}
export type Event<T> = (listener: Listener<T>) => Disposable;

export class Emitter<T> {
  private listeners: Listener<T>[] = [];

  readonly event: Event<T> = (listener) => {
    this.listeners.push(listener);
    return {
      dispose: () => {
        this.listeners = this.listeners.filter((l) => l !== listener);
      },
    };
  };

  fire(e: T): void {
    if (this.listeners.length === 0) return; // a hot path (a record per log line) with nobody listening
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch (err) {
        // One broken listener (another extension using our API) must not stop the others.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  dispose(): void {
    this.listeners = [];
  }
}
