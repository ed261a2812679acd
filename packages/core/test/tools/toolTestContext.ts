import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EditorBuffers } from "../../src/tools/editorBuffers.js";
import { FileReadLedger } from "../../src/tools/fileReadLedger.js";
import { BackgroundTerminals } from "../../src/tools/terminals/backgroundTerminals.js";
import {
  defaultOutputLimits,
  type OutputLimits,
  type ToolContext,
  type ToolResult,
} from "../../src/tools/tool.js";

const repoNodeModules = path.resolve(import.meta.dirname, "../../../../node_modules");

export interface EmittedChunk {
  stream: "stdout" | "stderr";
  chunk: string;
  at: number;
}

export interface ToolTestBed {
  /** Real path of a fresh project directory. */
  projectRoot: string;
  latheHome: string;
  /** A directory beside the project, for things that must be outside it. */
  outside: string;
  ledger: FileReadLedger;
  /** Shared by every context of this bed, as in one session; killed on cleanup. */
  terminals: BackgroundTerminals;
  emitted: EmittedChunk[];
  /** Writes a file of the project, creating its folders. */
  write(relative: string, contents: string): void;
  /** Makes the project a strict TypeScript project checked by the repository's own compiler. */
  typescriptProject(): void;
  context(overrides?: {
    signal?: AbortSignal;
    outputLimits?: OutputLimits;
    callId?: string;
    editorBuffers?: EditorBuffers;
  }): ToolContext;
  cleanup(): void;
}

/** Real directories in the system temp dir; every test gets its own. */
export function createToolTestBed(): ToolTestBed {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-tools-")));
  const projectRoot = path.join(base, "project");
  const latheHome = path.join(base, "lathe-home");
  const outside = path.join(base, "outside");
  for (const directory of [projectRoot, latheHome, outside]) mkdirSync(directory);
  const ledger = new FileReadLedger();
  const terminals = new BackgroundTerminals();
  const emitted: EmittedChunk[] = [];
  return {
    projectRoot,
    latheHome,
    outside,
    ledger,
    terminals,
    emitted,
    write: (relative, contents) => {
      const absolute = path.join(projectRoot, relative);
      mkdirSync(path.dirname(absolute), { recursive: true });
      writeFileSync(absolute, contents);
    },
    typescriptProject: () => {
      symlinkSync(repoNodeModules, path.join(projectRoot, "node_modules"));
      writeFileSync(
        path.join(projectRoot, "tsconfig.json"),
        JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ["src"] }),
      );
    },
    context: (overrides = {}) => ({
      projectRoot,
      sessionId: "session-1",
      callId: overrides.callId ?? "call-1",
      latheHome,
      signal: overrides.signal ?? new AbortController().signal,
      emitOutput: (stream, chunk) => emitted.push({ stream, chunk, at: Date.now() }),
      fileReads: ledger,
      terminals,
      outputLimits: overrides.outputLimits ?? defaultOutputLimits,
      editorBuffers: overrides.editorBuffers,
    }),
    cleanup: () => {
      // The first signals go out at once; the directories can go while the processes end.
      void terminals.killAll();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** The output of a result that must have succeeded; fails the test with the error otherwise. */
export function outputOf(result: ToolResult): string {
  if (!result.ok) throw new Error(`expected success, got ${result.error.code}: ${result.error.message}`);
  return result.output;
}

/** The error of a result that must have failed; fails the test with the output otherwise. */
export function errorOf(result: ToolResult) {
  if (result.ok) throw new Error(`expected an error, got: ${result.output}`);
  return result.error;
}
