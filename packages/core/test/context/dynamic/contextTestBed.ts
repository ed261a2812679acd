import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DynamicContextInputs } from "../../../src/context/dynamic/dynamicContext.js";

/** What the integrator replaces with the real tokenizer: about four characters a token. */
export const countTokens = (text: string): number => Math.ceil(text.length / 4);

export interface ContextTestBed {
  /** Real path of a fresh project directory. */
  root: string;
  /** A directory beside the project. */
  outside: string;
  write(relative: string, contents: string | Buffer): void;
  cleanup(): void;
}

export function createContextTestBed(): ContextTestBed {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-context-")));
  const root = path.join(base, "project");
  const outside = path.join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  return {
    root,
    outside,
    write(relative, contents) {
      const absolute = path.join(root, relative);
      mkdirSync(path.dirname(absolute), { recursive: true });
      writeFileSync(absolute, contents);
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** `line 1\nline 2\n…line n\n`. */
export function numberedText(count: number, prefix = "line"): string {
  return Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}\n`).join("");
}

/** The lines as the context shows them: `     7|line 7`, independent of the code under test. */
export function shownLines(from: number, to: number, prefix = "line"): string {
  const lines: string[] = [];
  for (let line = from; line <= to; line++) lines.push(`${String(line).padStart(6)}|${prefix} ${line}`);
  return lines.join("\n");
}

/** Inputs for buildDynamicContext in the bed's project: a large budget unless a test says otherwise. */
export function dynamicInputs(
  bed: ContextTestBed,
  overrides: Partial<DynamicContextInputs>,
): DynamicContextInputs {
  return {
    projectRoot: bed.root,
    budgetTokens: 100_000,
    countTokens,
    signal: new AbortController().signal,
    ...overrides,
  };
}
