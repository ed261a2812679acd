/**
 * stdout or stderr as the run writes to it, where the reader may go away (`lathe -p … | head`).
 * A write to a pipe with no reader fails with EPIPE, which the stream reports as an 'error' event
 * and which, unheard, would end Lathe with a stack trace. Here any error of the stream closes it
 * for good: the stream is destroyed by then, so nothing more could be written anyway. Writes after
 * that are dropped, and the listeners hear of it once, so the run can be cancelled.
 */
export interface ClosableOutput {
  write(text: string): void;
  readonly closed: boolean;
  /** Calls `listener` once when the output closes; the result stops listening. */
  onClose(listener: () => void): () => void;
}

export function closableOutput(stream: NodeJS.WritableStream): ClosableOutput {
  const listeners = new Set<() => void>();
  let closed = false;
  stream.on("error", () => {
    if (closed) return;
    closed = true;
    for (const listener of [...listeners]) listener();
    listeners.clear();
  });
  return {
    write(text) {
      if (!closed) stream.write(text);
    },
    get closed() {
      return closed;
    },
    onClose(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
