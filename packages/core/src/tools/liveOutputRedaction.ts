type Stream = "stdout" | "stderr";

/**
 * A partial line longer than this is passed on without waiting for its end (a progress bar that
 * never prints a newline), redacted as it is.
 */
const maxHeldChars = 8192;

/**
 * Redacts a call's streamed output line by line, so a secret that the pipe delivered in two
 * chunks is still seen whole: each stream's unfinished last line waits for the next chunk or
 * `flush`. `\r` ends a line too, so progress bars keep moving.
 */
export function liveOutputRedactor(
  redact: (text: string) => string,
  emit: (stream: Stream, chunk: string) => void,
): { push(stream: Stream, chunk: string): void; flush(): void } {
  const held: Record<Stream, string> = { stdout: "", stderr: "" };
  const send = (stream: Stream, text: string) => {
    if (text !== "") emit(stream, redact(text));
  };
  return {
    push(stream, chunk) {
      const text = held[stream] + chunk;
      const end = Math.max(text.lastIndexOf("\n"), text.lastIndexOf("\r")) + 1;
      const rest = text.slice(end);
      if (rest.length > maxHeldChars) {
        held[stream] = "";
        send(stream, text);
        return;
      }
      held[stream] = rest;
      send(stream, text.slice(0, end));
    },
    flush() {
      for (const stream of ["stdout", "stderr"] as const) {
        send(stream, held[stream]);
        held[stream] = "";
      }
    },
  };
}
