/** What the stream bench page drives: the chat's renderer or a peer. */
export interface BenchRenderer {
  /** Mounts the empty answer. */
  start(): void;
  /** A chunk arrived from the model. */
  push(delta: string): void;
  /** The stream ended. */
  end(): void;
  /** How much of the answer the DOM holds now. */
  shownLength(): number;
  /** Unmounts. */
  stop(): void;
}
