import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EditorLine } from "../src/terminalUi/lineEditor.js";
import { mentionCandidates } from "../src/terminalUi/mentionCandidates.js";
import { completedMention, mentionAtCursor, mentionHint } from "../src/terminalUi/mentionCompletion.js";

/** "ab|c": the text with the cursor written as `|`. */
function at(written: string): EditorLine {
  const cursor = written.indexOf("|");
  return { text: written.slice(0, cursor) + written.slice(cursor + 1), cursor };
}

function written(line: EditorLine): string {
  return `${line.text.slice(0, line.cursor)}|${line.text.slice(line.cursor)}`;
}

describe("the @ mention before the cursor", () => {
  const cases: [line: string, query: string | undefined][] = [
    ["@|", ""],
    ["read @src/ma|", "src/ma"],
    ["read (@src|", "src"],
    ["@fi|", "fi"],
    ["@file src/ma|", "file src/ma"],
    ["@folder |", "folder "],
    ["mail me@example.com|", undefined],
    ["@src/a.ts and more|", undefined],
    ["@git d|", undefined],
    ["@src/a.ts|", "src/a.ts"],
  ];
  it.each(cases)("%j → %j", (line, query) => {
    expect(mentionAtCursor(at(line))?.query).toBe(query);
  });

  it("knows where its @ is", () => {
    expect(mentionAtCursor(at("see @do| later"))).toEqual({ start: 4, query: "do" });
  });
});

describe("completing a mention", () => {
  const cases: [line: string, candidates: string[], after: string][] = [
    ["see @do|", ["docs/"], "see @docs/|"],
    ["see @docs/re|", ["docs/release-plan.md"], "see @docs/release-plan.md |"],
    ["see @docs/re| now", ["docs/release-plan.md"], "see @docs/release-plan.md| now"],
    ["@src/|", ["src/main.ts", "src/maps/"], "@src/ma|"],
    ["@fo|", ["folder"], "@folder |"],
    ["@f|", ["file", "folder"], "@f|"],
    ["@Make|", ["Makefile"], "@file Makefile |"],
    ["@file Make|", ["file Makefile"], "@file Makefile |"],
    ["@nothing|", [], "@nothing|"],
    ["@docs/|", ["docs/"], "@docs/|"],
  ];
  it.each(cases)("%j with %j → %j", (line, candidates, after) => {
    const before = at(line);
    const mention = mentionAtCursor(before);
    expect(mention).toBeDefined();
    expect(written(completedMention(before, mention!, candidates))).toBe(after);
  });

  it("lists the candidates as mentions in the hint, ten at most", () => {
    expect(mentionHint(["docs/", "file"])).toBe("@docs/  @file");
    expect(mentionHint([])).toBeUndefined();
    const many = Array.from({ length: 12 }, (_, i) => `f${i}.ts`);
    expect(mentionHint(many)).toBe(
      "@f0.ts  @f1.ts  @f2.ts  @f3.ts  @f4.ts  @f5.ts  @f6.ts  @f7.ts  @f8.ts  @f9.ts  … 2 more",
    );
  });
});

describe("the project's mention candidates", () => {
  let base: string;
  let root: string;

  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), "lathe-mentions-"));
    root = join(base, "project");
    const files: Record<string, string> = {
      "src/main.ts": "",
      "src/maps/world.ts": "",
      "src/build.log": "",
      "docs/release-plan.md": "",
      "README.md": "",
      Makefile: "",
      ".env.example": "",
      ".gitignore": "*.log\n",
      "node_modules/pkg/index.js": "",
      "odd name.md": "",
      [join("..", "outside", "secret.txt")]: "",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    symlinkSync(join(base, "outside"), join(root, "elsewhere"));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("offers the project's top entries and the kinds after a bare @", async () => {
    expect(await mentionCandidates(root, "")).toEqual([
      "Makefile",
      "README.md",
      "docs/",
      "src/",
      "file",
      "folder",
      "symbol",
      "rule",
      "url",
      "web",
      "git",
      "chat",
      "lints",
      "terminal",
    ]);
  });

  it("completes within a folder, leaving out ignored files", async () => {
    expect(await mentionCandidates(root, "src/")).toEqual(["src/main.ts", "src/maps/"]);
    expect(await mentionCandidates(root, "src/ma")).toEqual(["src/main.ts", "src/maps/"]);
    expect(await mentionCandidates(root, "src/maps/")).toEqual(["src/maps/world.ts"]);
    expect(await mentionCandidates(root, "fi")).toEqual(["file"]);
  });

  it("shows hidden entries once a dot is typed, never .git or node_modules", async () => {
    expect(await mentionCandidates(root, ".")).toEqual([".env.example", ".gitignore"]);
    expect(await mentionCandidates(root, "node")).toEqual([]);
  });

  it("keeps the chosen kind, and offers only folders for @folder", async () => {
    expect(await mentionCandidates(root, "file src/m")).toEqual(["file src/main.ts", "file src/maps/"]);
    expect(await mentionCandidates(root, "folder s")).toEqual(["folder src/"]);
    expect(await mentionCandidates(root, "git d")).toEqual([]);
  });

  it("never lists a folder outside the project", async () => {
    expect(await mentionCandidates(root, "../")).toEqual([]);
    expect(await mentionCandidates(root, "../outside/")).toEqual([]);
    expect(await mentionCandidates(root, `${base}/outside/`)).toEqual([]);
    expect(await mentionCandidates(root, "elsewhere/")).toEqual([]);
    expect(await mentionCandidates(root, "/")).toEqual([]);
  });
});
