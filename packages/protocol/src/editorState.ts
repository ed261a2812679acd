import { z } from "zod";

/** A position in a file, 1-based as editors show it. */
export const cursorSchema = z.object({
  line: z.number().int().positive(),
  column: z.number().int().positive(),
});

export const openFileSchema = z.object({
  /** Relative to the project root. */
  path: z.string(),
  /** Unsaved buffer text; absent means the file on disk is current. */
  content: z.string().optional(),
  cursor: cursorSchema.optional(),
  selection: z.object({ start: cursorSchema, end: cursorSchema }).optional(),
});

export const diagnosticSchema = z.object({
  path: z.string(),
  line: z.number().int().positive(),
  column: z.number().int().positive().optional(),
  severity: z.enum(["error", "warning", "info"]),
  message: z.string(),
  source: z.string().optional(),
});

/**
 * What an editor tells the engine about itself (SPEC §6 dynamic context). The first message of a
 * session carries all of it; later ones carry only what changed (seed 004 §4.3).
 */
export const editorStateSchema = z.object({
  /** Most recently focused first. */
  openFiles: z.array(openFileSchema).default([]),
  activeFile: z.string().optional(),
  diagnostics: z.array(diagnosticSchema).default([]),
  /** The tail of the editor's terminal. */
  terminalOutput: z.string().optional(),
});
export type EditorState = z.infer<typeof editorStateSchema>;

/** A change to the editor state: fields present replace the old ones; absent fields stay. */
export const editorStateDeltaSchema = z.object({
  openFiles: z.array(openFileSchema).optional(),
  activeFile: z.string().nullable().optional(),
  diagnostics: z.array(diagnosticSchema).optional(),
  terminalOutput: z.string().nullable().optional(),
});
export type EditorStateDelta = z.infer<typeof editorStateDeltaSchema>;
