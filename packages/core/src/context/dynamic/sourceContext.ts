import path from "node:path";
import type { EditorState } from "@lathe/protocol";
import type { FileReadLedger } from "../../tools/fileReadLedger.js";
import type { ContextAssembly } from "./contextAssembly.js";
import type { CountTokens } from "./contextText.js";
import type { DynamicContextSettings } from "./dynamicContextSettings.js";
import { type ProjectEntry, readProjectEntry } from "./projectFile.js";

/** What every source of the dynamic context works with while one block is built. */
export interface SourceContext {
  projectRoot: string;
  editor: EditorState | undefined;
  countTokens: CountTokens;
  settings: DynamicContextSettings;
  assembly: ContextAssembly;
  /** Why something was left out (a sensitive file, a failed search): shown at the end of the block. */
  notes: string[];
  /** Relative paths shown so far, and whether all of the file was. */
  shown: Map<string, { complete: boolean }>;
  /** A file as context sees it, read once per block; open editor buffers win over the disk. */
  read(input: string): Promise<ProjectEntry>;
  /** Told about files shown whole, which the model has then seen as read_file would show them. */
  fileReads: FileReadLedger | undefined;
}

export function createSourceContext(options: {
  projectRoot: string;
  editor: EditorState | undefined;
  countTokens: CountTokens;
  settings: DynamicContextSettings;
  assembly: ContextAssembly;
  fileReads: FileReadLedger | undefined;
}): SourceContext {
  const unsaved = new Map<string, string>();
  for (const file of options.editor?.openFiles ?? []) {
    if (file.content !== undefined) unsaved.set(normalize(file.path), file.content);
  }
  const cache = new Map<string, Promise<ProjectEntry>>();
  const read = (input: string): Promise<ProjectEntry> => {
    const key = normalize(input);
    let entry = cache.get(key);
    if (entry === undefined) {
      const text = unsaved.get(key);
      entry = readProjectEntry(options.projectRoot, input, {
        maxBytes: options.settings.maxFileBytes,
        unsaved: text,
      });
      cache.set(key, entry);
    }
    return entry;
  };
  return { ...options, notes: [], shown: new Map(), read };
}

/** `./src/a.ts` and `src/a.ts` are one file. */
export function normalize(input: string): string {
  return path.posix.normalize(input);
}
