import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderRepoMap } from "../../src/codeIntel/repoMap/repoMap.js";
import type { IndexedSymbol } from "../../src/codeIntel/symbolInfo.js";
import { type CodeIndexBed, createCodeIndexBed } from "./codeIndexTestBed.js";

let bed: CodeIndexBed;
beforeEach(() => {
  bed = createCodeIndexBed();
});
afterEach(() => bed.cleanup());

/** `parseConfig` is used from three files, `Logger` from two, `formatDate` once, `unused` never. */
function writeProject(): void {
  bed.write(
    "src/config.ts",
    "export function parseConfig(text: string): Config {\n  return JSON.parse(text);\n}\n\nexport interface Config {\n  level: string;\n}\n",
  );
  bed.write(
    "src/logger.ts",
    'import { parseConfig } from "./config";\nexport class Logger {\n  log(message: string): void {}\n}\nexport function unused() {}\n',
  );
  bed.write(
    "src/time.ts",
    "export function formatDate(date: Date): string {\n  return date.toISOString();\n}\n",
  );
  bed.write("src/main.ts", 'const logger = new Logger();\nparseConfig("{}");\nformatDate(new Date());\n');
  bed.write("src/cli.ts", 'parseConfig("{}");\nconst other = new Logger();\n');
}

describe("CodeIndex.repoMap", () => {
  it("lists the most referenced symbols first, grouped by file, with line numbers and signatures", async () => {
    writeProject();
    const index = bed.open();
    await index.refresh();
    expect(index.repoMap({ maxTokens: 1000 })).toBe(
      [
        "src/config.ts:",
        "  1: export function parseConfig(text: string): Config",
        "  5: export interface Config",
        "src/logger.ts:",
        "  2: export class Logger",
        "    3: log(message: string): void",
        "  5: export function unused()",
        "src/time.ts:",
        "  1: export function formatDate(date: Date): string",
      ].join("\n"),
    );
  });

  it("keeps within the token budget, dropping the least referenced first", async () => {
    writeProject();
    const index = bed.open();
    await index.refresh();
    const map = index.repoMap({ maxTokens: 20 });
    expect(map.length).toBeLessThanOrEqual(80);
    expect(map).toBe("src/config.ts:\n  1: export function parseConfig(text: string): Config");
    expect(index.repoMap({ maxTokens: 5 })).toBe("");
  });

  it("ranks the symbols of files in focus, and those they use, higher", async () => {
    writeProject();
    const index = bed.open();
    await index.refresh();
    const map = index.repoMap({ maxTokens: 40, focusPaths: ["src/time.ts"] });
    expect(map.split("\n").slice(0, 2)).toEqual([
      "src/time.ts:",
      "  1: export function formatDate(date: Date): string",
    ]);
  });

  it("is empty for a project without symbols", async () => {
    bed.write("notes.md", "# Notes\n");
    const index = bed.open();
    await index.refresh();
    expect(index.repoMap({ maxTokens: 1000 })).toBe("");
  });
});

describe("renderRepoMap ranking", () => {
  const symbol = (
    name: string,
    path: string,
    visibility: IndexedSymbol["visibility"],
    kind = "function",
  ) => ({
    name,
    kind,
    path,
    startLine: 1,
    endLine: 1,
    signature: `function ${name}()`,
    visibility,
  });

  it("counts a private symbol's uses in its own file only, and splits a public name's uses among its definitions", () => {
    const references = new Map<string, Record<string, number>>([
      ["a.ts", { join: 1, render: 2 }],
      ["b.ts", { join: 9, render: 3 }],
      ["c.ts", { render: 1 }],
    ]);
    const map = renderRepoMap({
      symbols: [
        symbol("join", "a.ts", "file"),
        symbol("render", "b.ts", "project"),
        symbol("render", "c.ts", "project"),
        symbol("helper", "d.ts", "project"),
      ],
      references,
      maxTokens: 1000,
    });
    // render: (6 + 1) / 2 each; join: its 1 use in a.ts + 1; helper: 1.
    expect(map.split("\n").filter((line) => line.endsWith(":"))).toEqual([
      "b.ts:",
      "c.ts:",
      "a.ts:",
      "d.ts:",
    ]);
  });

  it("ranks tests and members below module-level code", () => {
    const references = new Map<string, Record<string, number>>([
      ["use.ts", { setup: 10, build: 10, make: 10 }],
    ]);
    const map = renderRepoMap({
      symbols: [
        symbol("setup", "x.test.ts", "project"),
        symbol("build", "x.ts", "project", "method"),
        symbol("make", "y.ts", "project"),
      ],
      references,
      maxTokens: 1000,
    });
    expect(map.split("\n").filter((line) => line.endsWith(":"))).toEqual(["y.ts:", "x.ts:", "x.test.ts:"]);
  });
});
