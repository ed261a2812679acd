import * as acp from "@agentclientprotocol/sdk";
import type { EditorBuffers } from "@lathe/core";

/**
 * The editor's open files, read with `fs/read_text_file` and written with `fs/write_text_file`,
 * as far as the editor offers them: what the model reads is what the user sees, unsaved changes
 * included, and its edits land in the editor's undo history. A path the editor cannot read is
 * read from the disk instead; the disk always gets the written text too.
 */
export function clientBuffers(
  client: acp.AgentContext,
  sessionId: () => string,
  offered: { readTextFile?: boolean; writeTextFile?: boolean },
): EditorBuffers {
  const write: EditorBuffers["write"] = (path, content, signal) =>
    client
      .request(
        acp.methods.client.fs.writeTextFile,
        { sessionId: sessionId(), path, content },
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      )
      .then(
        () => ({ ok: true as const }),
        (error: unknown) => ({
          ok: false as const,
          message: error instanceof Error ? error.message : String(error),
        }),
      );
  return {
    ...(offered.writeTextFile ? { write } : {}),
    async read(path, signal) {
      if (!offered.readTextFile) return undefined;
      const read = await client
        .request(
          acp.methods.client.fs.readTextFile,
          { sessionId: sessionId(), path },
          { cancellationSignal: signal, stopWaitingOnCancel: true },
        )
        .catch(() => undefined);
      return read?.content;
    },
  };
}
