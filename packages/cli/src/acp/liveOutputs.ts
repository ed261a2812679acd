/** A running command's output shown to the editor keeps its last 64 KB: the editor holds the rest. */
const shownBytes = 64 * 1024;

/**
 * The output of each running call so far. ACP's tool call content replaces what was shown
 * before, so each streamed chunk is sent with what came before it.
 */
export class LiveOutputs {
  private readonly texts = new Map<string, string>();

  /** The call's output with `chunk` added, its beginning cut past the limit. */
  add(callId: string, chunk: string): string {
    const text = `${this.texts.get(callId) ?? ""}${chunk}`;
    const kept = text.length > shownBytes ? text.slice(text.length - shownBytes) : text;
    this.texts.set(callId, kept);
    return kept;
  }

  /** A finished call's final output replaces what streamed. */
  end(callId: string): void {
    this.texts.delete(callId);
  }
}
