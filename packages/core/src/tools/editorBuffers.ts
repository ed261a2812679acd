/**
 * The files an editor has open, as it holds them: unsaved changes included (ACP's
 * `fs/read_text_file` and `fs/write_text_file`). Tools ask it only about paths the path guard has
 * already let through.
 */
export interface EditorBuffers {
  /** The file's text in the editor; undefined when the editor cannot say, and the disk is read. */
  read(absPath: string, signal: AbortSignal): Promise<string | undefined>;
  /**
   * Has the editor write the file, so the change is in its buffer and its undo history, or says
   * why it would not. Absent: the editor takes no writes.
   */
  write?(
    absPath: string,
    text: string,
    signal: AbortSignal,
  ): Promise<{ ok: true } | { ok: false; message: string }>;
}
