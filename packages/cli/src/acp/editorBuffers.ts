import * as acp from "@agentclientprotocol/sdk";
import type { EditorBuffers } from "@lathe/core";

/**
 * The editor's open files, read with `fs/read_text_file`, for an editor that offers it: what the
 * model reads is what the user sees, unsaved changes included. A path the editor cannot read is
 * read from the disk instead.
 */
export function clientBuffers(client: acp.AgentContext, sessionId: () => string): EditorBuffers {
  return {
    async read(path, signal) {
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
