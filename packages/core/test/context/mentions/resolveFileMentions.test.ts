import { symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseMentions } from "../../../src/context/mentions/parseMentions.js";
import { resolveMentions } from "../../../src/context/mentions/resolveMentions.js";
import { FileReadLedger } from "../../../src/tools/fileReadLedger.js";
import {
  type ContextTestBed,
  countTokens,
  createContextTestBed,
  numberedText,
  shownLines,
} from "../dynamic/contextTestBed.js";
import { mention, sourcesFor } from "./mentionTestBed.js";

let bed: ContextTestBed;
beforeEach(() => {
  bed = createContextTestBed();
});
afterEach(() => bed.cleanup());

describe("@file", () => {
  it("attaches the file with line numbers and lists it in files", async () => {
    bed.write("src/a.ts", "export const a = 1;\nexport const b = 2;\n");
    const ledger = new FileReadLedger();
    const result = await resolveMentions(
      [mention("file", "src/a.ts")],
      sourcesFor(bed.root, { fileReads: ledger }),
    );
    const text = "     1|export const a = 1;\n     2|export const b = 2;";
    expect(result).toEqual({
      attachments: [
        { mention: mention("file", "src/a.ts"), title: "src/a.ts", text, tokens: countTokens(text) },
      ],
      rules: [],
      errors: [],
      files: ["src/a.ts"],
    });
    expect(ledger.hasRead(path.join(bed.root, "src/a.ts"))).toBe(true);
  });

  it("attaches a file whose name has spaces, from a quoted mention", async () => {
    bed.write("my file.ts", "x\n");
    const result = await resolveMentions(parseMentions('see @file "my file.ts"'), sourcesFor(bed.root));
    expect(result.attachments.map((attachment) => [attachment.title, attachment.text])).toEqual([
      ["my file.ts", "     1|x"],
    ]);
  });

  it("cuts a long file at the token limit and says where to read on", async () => {
    bed.write("long.ts", numberedText(1000));
    const result = await resolveMentions(
      [mention("file", "long.ts")],
      sourcesFor(bed.root, { maxTokensPerMention: 100 }),
    );
    const [attachment] = result.attachments;
    expect(attachment!.tokens).toBeLessThanOrEqual(100);
    const lines = attachment!.text.split("\n");
    const shown = lines.length - 1;
    expect(lines.slice(0, -1).join("\n")).toBe(shownLines(1, shown));
    expect(lines.at(-1)).toBe(
      `[Cut at the 100-token limit of one mention: lines ${shown + 1} and on are not shown; read_file long.ts with offset=${shown + 1} reads them.]`,
    );
  });

  it("reads at most maxFileBytes of a file and says where the rest starts", async () => {
    bed.write("big.log", "0123456789\n".repeat(100));
    const result = await resolveMentions(
      [mention("file", "big.log")],
      sourcesFor(bed.root, { limits: { maxFileBytes: 25 } }),
    );
    expect(result.attachments[0]!.text).toBe(
      "     1|0123456789\n     2|0123456789\n[Cut at the 25-byte read limit: lines 3 and on are not shown; read_file big.log with offset=3 reads them.]",
    );
  });

  it("reports a missing file, a path outside the project and a sensitive file as errors", async () => {
    bed.write("src/index.ts", "x\n");
    bed.write(".env", "SECRET=1\n");
    writeFileSync(path.join(bed.outside, "x.ts"), "outside\n");
    symlinkSync(path.join(bed.outside, "x.ts"), path.join(bed.root, "escape.ts"));
    const mentions = [
      mention("file", "src/indx.ts"),
      mention("file", "../outside/x.ts"),
      mention("file", "escape.ts"),
      mention("file", ".env"),
      mention("file", "/etc/passwd"),
    ];
    const result = await resolveMentions(mentions, sourcesFor(bed.root));
    expect(result.attachments).toEqual([]);
    expect(result.errors.map(({ error }) => error.code)).toEqual([
      "E_FILE_NOT_FOUND",
      "E_PATH_TRAVERSAL",
      "E_PATH_TRAVERSAL",
      "E_SECURITY_BLOCKED",
      "E_PATH_TRAVERSAL",
    ]);
    expect(result.errors[0]!.error.message).toBe("File not found: src/indx.ts. Did you mean: src/index.ts?");
    expect(result.errors[3]!.error.message).toContain(".env is a sensitive file (.env*)");
    expect(result.errors.map(({ mention }) => mention.argument)).toEqual(mentions.map((m) => m.argument));
  });

  it("refuses binary files", async () => {
    bed.write("blob.bin", Buffer.from([1, 0, 2]));
    bed.write("data.txt", Buffer.from([0x61, 0, 0x62]));
    const result = await resolveMentions(
      [mention("file", "blob.bin"), mention("file", "data.txt")],
      sourcesFor(bed.root),
    );
    expect(result.errors.map(({ error }) => [error.code, error.message])).toEqual([
      ["E_BINARY_FILE", "blob.bin is a binary file (.bin)."],
      ["E_BINARY_FILE", "data.txt is a binary file (it contains NUL bytes)."],
    ]);
  });

  it("attaches a bare @path that exists and leaves one that does not as text", async () => {
    bed.write("src/a.ts", "a\n");
    const result = await resolveMentions(
      parseMentions("compare @src/a.ts with @types/node, @scope/pkg.json and GET @/api/users"),
      sourcesFor(bed.root),
    );
    expect(result.attachments.map((attachment) => attachment.title)).toEqual(["src/a.ts"]);
    expect(result.errors).toEqual([]);
    expect(result.files).toEqual(["src/a.ts"]);
  });

  it("attaches a repeated mention once", async () => {
    bed.write("a.ts", "a\n");
    const result = await resolveMentions(parseMentions("@file a.ts then @file a.ts"), sourcesFor(bed.root));
    expect(result.attachments).toHaveLength(1);
    expect(result.attachments[0]!.mention.start).toBe(0);
  });
});

describe("@folder", () => {
  beforeEach(() => {
    bed.write("src/a.ts", "aaaa\n");
    bed.write("src/lib/b.ts", "bbbb\n");
    bed.write("src/lib/deep/c.ts", "cccc\n");
    bed.write("node_modules/pkg/index.js", "x\n");
    bed.write("debug.log", "x\n");
    bed.write(".gitignore", "*.log\n");
  });

  it("lists two levels, directories first, ignored entries left out", async () => {
    const result = await resolveMentions([mention("folder", "src")], sourcesFor(bed.root));
    expect(result.attachments.map((attachment) => [attachment.title, attachment.text])).toEqual([
      ["src/", "src/\n  lib/\n    deep/\n    b.ts (5 B)\n  a.ts (5 B)"],
    ]);
    const root = await resolveMentions([mention("folder", ".")], sourcesFor(bed.root));
    expect(root.attachments[0]!.text).toBe(
      "./\n  src/\n    lib/\n    a.ts (5 B)\n  .gitignore (6 B)\n[2 ignored entries are not shown.]",
    );
  });

  it("shows at most 200 entries", async () => {
    for (let index = 0; index < 250; index++) bed.write(`many/f${String(index).padStart(3, "0")}.txt`, "");
    const result = await resolveMentions([mention("folder", "many")], sourcesFor(bed.root));
    const lines = result.attachments[0]!.text.split("\n");
    expect(lines.filter((line) => line.startsWith("  f"))).toHaveLength(200);
    expect(lines.slice(-2)).toEqual([
      "  … 50 more not shown",
      "[Only the first 200 entries are shown; mention a subfolder to see more.]",
    ]);
  });

  it("lists a directory named with @file or bare, and refuses a file named with @folder", async () => {
    const result = await resolveMentions(
      [
        mention("file", "src/lib"),
        mention("file", "src/lib/", true),
        mention("folder", "src/a.ts"),
        mention("folder", "nope"),
      ],
      sourcesFor(bed.root),
    );
    expect(result.attachments.map((attachment) => attachment.title)).toEqual(["src/lib/", "src/lib/"]);
    expect(result.errors.map(({ error }) => [error.code, error.message])).toEqual([
      ["E_INVALID_ARGS", "src/a.ts is a file, not a folder; mention it with @file."],
      ["E_FILE_NOT_FOUND", "File not found: nope."],
    ]);
  });

  it("refuses a folder outside the project", async () => {
    const result = await resolveMentions([mention("folder", "..")], sourcesFor(bed.root));
    expect(result.errors.map(({ error }) => error.code)).toEqual(["E_PATH_TRAVERSAL"]);
  });
});
