/**
 * The files an editor has open, as it holds them: unsaved changes included (ACP's
 * `fs/read_text_file`). Tools ask it only about paths the path guard has already let through.
 */
export interface EditorBuffers {
  /** The file's text in the editor; undefined when the editor cannot say, and the disk is read. */
  read(absPath: string, signal: AbortSignal): Promise<string | undefined>;
}
