import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { processAlive } from "@lathe/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { executableOnPath } from "../../src/fileSystem/executableOnPath.js";
import { createSearchFilesTool, searchFilesTool } from "../../src/tools/builtin/searchFiles/searchFiles.js";
import type { OutputLimits } from "../../src/tools/tool.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

const ripgrep = await executableOnPath("rg");
const rgTool = createSearchFilesTool({ engine: "ripgrep" });
const jsTool = createSearchFilesTool({ engine: "js" });

type SearchArgs = Parameters<typeof searchFilesTool.execute>[0];

function write(root: string, relative: string, contents: string | Buffer): void {
  const absolute = path.join(root, relative);
  mkdirSync(path.dirname(absolute), { recursive: true });
  writeFileSync(absolute, contents);
}

const longLine = `${"x".repeat(3000)} needle ${"y".repeat(3000)}`;

/** A small project holding every case where the engines could disagree. */
function writeCorpus(root: string): void {
  write(root, ".gitignore", "*.log\ngenerated/\n/rootonly.txt\n!keep.log\n");
  write(
    root,
    "src/app.ts",
    [
      'import { readFile } from "node:fs";',
      "",
      "export function hello(name: string): string {",
      "  // TODO: greet in more languages",
      '  return "hello " + name;',
      "}",
      "",
      "export class ParseError extends Error {}",
      "export class NetworkError extends Error {}",
      "const foo = 1; const foobar = 2; const barfoo = 3;",
      "const numbers = [12, 345, 6789];",
      "  export const indented = true;",
      "",
      "",
      "abc a.c a-c aXc",
    ].join("\n"),
  );
  write(root, "src/util.ts", "export const x = 1;\n// todo lowercase\n// Todo mixed\nexport const y = 2;\n");
  write(root, "src/deep/nested/mod.ts", "export function nested() {\n  return hello('deep');\n}\n");
  write(
    root,
    "docs/naïve notes.md",
    "Café au lait\nCAFÉ NOIR\nλόγος and ΛΟΓΟΣ\nemoji 😀 here\n日本語のテキスト\nnaïve résumé\n",
  );
  write(root, "docs/no-final-newline.txt", "first line\nlast line hello");
  write(root, "docs/crlf.txt", "hello world\r\nsecond hello\r\nthird\r\n");
  write(
    root,
    "docs/bom.txt",
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("hello with bom\n")]),
  );
  write(
    root,
    "docs/utf16.txt",
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hello utf16\nbye\n", "utf16le")]),
  );
  write(root, "docs/empty.txt", "");
  write(root, "docs/long.min.js", `${longLine}\n`);
  write(
    root,
    "docs/context.txt",
    Array.from({ length: 30 }, (_, index) => `line ${index + 1}${index % 7 === 3 ? " match" : ""}`).join(
      "\n",
    ),
  );
  write(
    root,
    "bin/data.bin",
    Buffer.concat([Buffer.from("hello binary\n"), Buffer.from([0, 1, 2, 3]), Buffer.from("hello\n")]),
  );
  write(
    root,
    "bin/late-nul.txt",
    Buffer.concat([Buffer.from("hello early\n".repeat(20000)), Buffer.from([0]), Buffer.from("hello\n")]),
  );
  write(root, ".env", "SECRET_HELLO=hello\n");
  write(root, ".config/settings.json", '{ "hello": true }\n');
  write(root, "node_modules/pkg/index.js", "hello from node_modules\n");
  write(root, "dist/out.js", "hello from dist\n");
  write(root, "build", "#!/bin/sh\necho hello from the build script\n");
  write(root, "sub/build/artifact.ts", "hello from a build directory\n");
  write(root, ".git/config", "hello from git\n");
  write(root, ".git/info/exclude", "excluded-by-info.txt\n");
  write(root, "excluded-by-info.txt", "hello excluded by .git/info/exclude\n");
  write(root, "sub/excluded-by-info.txt", "hello excluded there too\n");
  write(root, "debug.log", "hello from a log\n");
  write(root, "keep.log", "hello from keep.log\n");
  write(root, "generated/gen.ts", "hello from generated\n");
  write(root, "rootonly.txt", "hello rootonly\n");
  write(root, "sub/rootonly.txt", "hello sub rootonly\n");
  write(root, "sub/.gitignore", "!important.log\nlocal.txt\n");
  write(root, "sub/important.log", "hello important log\n");
  write(root, "sub/local.txt", "hello local\n");
  // A repository inside the project: the project's .gitignore stops at its root.
  mkdirSync(path.join(root, "vendor/lib/.git"), { recursive: true });
  write(root, "vendor/lib/notes.log", "hello from a nested repository\n");
  write(root, "vendor/lib/.git/info/exclude", "/private.txt\n");
  write(root, "vendor/lib/private.txt", "hello private\n");
  write(root, "vendor/lib/excluded-by-info.txt", "hello from the nested repository's own file\n");
  symlinkSync(path.join(root, "src/app.ts"), path.join(root, "link.ts"));
}

const equivalenceCases: SearchArgs[] = [
  { pattern: "hello" },
  { pattern: "TODO", case_insensitive: true },
  { pattern: "todo" },
  { pattern: "\\bfoo\\b" },
  { pattern: "foo\\B" },
  { pattern: "^\\s*export" },
  { pattern: ";$" },
  { pattern: "^$" },
  { pattern: "", glob: "*.md" },
  { pattern: "[A-Z][a-z]+Error" },
  { pattern: "\\d{3,}" },
  { pattern: "caf[eé]", case_insensitive: true },
  { pattern: "(?i)CAFÉ" },
  { pattern: "λόγος", case_insensitive: true },
  { pattern: "\\p{Greek}+" },
  { pattern: "\\w+é" },
  { pattern: "\\w{4}" },
  { pattern: "😀" },
  { pattern: "[^\\x00-\\x7F]+" },
  { pattern: "a.c" },
  { pattern: "a\\.c" },
  { pattern: "[[:digit:]]+" },
  { pattern: "[[:upper:]]{3}" },
  { pattern: "\\x68\\u{65}llo" },
  { pattern: "o{2}" },
  { pattern: "hello|bye" },
  { pattern: "(?x) hel lo  # a comment" },
  { pattern: "(?P<word>fo+)bar" },
  { pattern: "hello$" },
  { pattern: "\\S+\\s+\\S+$" },
  { pattern: "[\\s]x" },
  { pattern: "\\W+\\d" },
  { pattern: "\\D\\d" },
  { pattern: "\\Ahello" },
  { pattern: "line\\z" },
  { pattern: "needle" },
  { pattern: "needle", context_lines: 1 },
  { pattern: "match", context_lines: 2 },
  { pattern: "match", context_lines: 4 },
  { pattern: "hello", context_lines: 1 },
  { pattern: "hello", glob: "*.ts" },
  { pattern: "hello", glob: "src/**/*.ts" },
  { pattern: "hello", glob: "!*.txt" },
  { pattern: "hello", glob: "*.{md,txt}" },
  { pattern: "hello", path: "sub" },
  { pattern: "hello", path: "src/app.ts" },
  { pattern: "hello", path: "generated" },
  { pattern: "hello", path: "node_modules" },
  { pattern: "hello", path: "docs" },
  { pattern: "(?-i)Hello", case_insensitive: true },
  { pattern: "export (?i:CONST)" },
  { pattern: "[]a]bc" },
  { pattern: "x]" },
  { pattern: "" },
  { pattern: "e", context_lines: 3 },
  { pattern: "line \\d+", context_lines: 2 },
];

describe.skipIf(ripgrep === undefined)("search_files: ripgrep and the JavaScript engine agree", () => {
  let bed: ToolTestBed;
  beforeAll(() => {
    bed = createToolTestBed();
    writeCorpus(bed.projectRoot);
  });
  afterAll(() => bed.cleanup());

  it.each(equivalenceCases)("%j", async (args) => {
    const viaRipgrep = await rgTool.execute(args, bed.context());
    const viaJs = await jsTool.execute(args, bed.context());
    expect(viaRipgrep.ok).toBe(true);
    expect(viaJs.ok ? viaJs.output : viaJs.error).toEqual(outputOf(viaRipgrep));
  });

  it("finds what ripgrep finds and leaves out what it leaves out", async () => {
    const output = outputOf(await rgTool.execute({ pattern: "hello" }, bed.context()));
    const files = new Set(output.split("\n").map((line) => line.split(":")[0]));
    for (const included of [
      ".env",
      ".config/settings.json",
      "build",
      "keep.log",
      "sub/rootonly.txt",
      "sub/important.log",
      "vendor/lib/notes.log",
      "vendor/lib/excluded-by-info.txt",
      "docs/bom.txt",
      "docs/utf16.txt",
      "docs/crlf.txt",
      "docs/no-final-newline.txt",
    ]) {
      expect(files, included).toContain(included);
    }
    for (const excluded of [
      "node_modules/pkg/index.js",
      "dist/out.js",
      "sub/build/artifact.ts",
      ".git/config",
      "debug.log",
      "generated/gen.ts",
      "rootonly.txt",
      "sub/local.txt",
      "bin/data.bin",
      "bin/late-nul.txt",
      "link.ts",
      "excluded-by-info.txt",
      "sub/excluded-by-info.txt",
      "vendor/lib/private.txt",
    ]) {
      expect(files, excluded).not.toContain(excluded);
    }
  });

  it("refuses the same invalid patterns", async () => {
    for (const pattern of ["foo(", "(?=x)", "(a)\\1", "a{", "\\n", "[z-a]"]) {
      expect(errorOf(await rgTool.execute({ pattern }, bed.context())).code, pattern).toBe("E_INVALID_ARGS");
      expect(errorOf(await jsTool.execute({ pattern }, bed.context())).code, pattern).toBe("E_INVALID_ARGS");
    }
  });
});

describe.each([
  ["ripgrep", rgTool],
  ["js", jsTool],
] as const)("search_files (%s engine)", (engine, tool) => {
  let bed: ToolTestBed;
  beforeEach(() => {
    bed = createToolTestBed();
  });
  afterEach(() => bed.cleanup());
  const skip = engine === "ripgrep" && ripgrep === undefined;

  it.skipIf(skip)("groups matches by file, sorted by path then line", async () => {
    write(bed.projectRoot, "b.ts", "one hit\nnothing\nsecond hit\n");
    write(bed.projectRoot, "a/z.ts", "hit\n");
    write(bed.projectRoot, "a.ts", "hit here\n");
    const output = outputOf(await tool.execute({ pattern: "hit" }, bed.context()));
    expect(output).toBe(
      ["a.ts:1: hit here", "a/z.ts:1: hit", "b.ts:1: one hit", "b.ts:3: second hit"].join("\n"),
    );
  });

  it.skipIf(skip)("shows context lines with - and separates groups", async () => {
    write(bed.projectRoot, "f.txt", ["a", "b", "hit 1", "c", "d", "e", "f", "hit 2", "g"].join("\n"));
    const output = outputOf(await tool.execute({ pattern: "hit", context_lines: 1 }, bed.context()));
    expect(output).toBe(
      ["f.txt:2- b", "f.txt:3: hit 1", "f.txt:4- c", "--", "f.txt:7- f", "f.txt:8: hit 2", "f.txt:9- g"].join(
        "\n",
      ),
    );
  });

  it.skipIf(skip)("says so plainly when nothing matches", async () => {
    write(bed.projectRoot, "a.ts", "nothing here\n");
    const result = await tool.execute({ pattern: "absent", glob: "*.ts" }, bed.context());
    expect(outputOf(result)).toMatch(/^No matches for "absent" in the project \(files matching "\*\.ts"\)\./);
  });

  it.skipIf(skip)("shows at most 100 matching lines and counts the rest", async () => {
    for (let file = 0; file < 30; file++) {
      write(bed.projectRoot, `f${String(file).padStart(2, "0")}.txt`, "hit\n".repeat(10));
    }
    const result = await tool.execute({ pattern: "hit" }, bed.context());
    const output = outputOf(result);
    const lines = output.split("\n");
    expect(lines.filter((line) => line.includes(": hit"))).toHaveLength(100);
    expect(lines[99]).toBe("f09.txt:10: hit");
    expect(lines.at(-1)).toBe(
      "[200 more matching lines not shown: at most 100 matching lines are shown. Shown 100 of 300 matching lines, " +
        'in 10 of 30 files. Narrow the search with a more specific pattern, a path or a glob (e.g. "*.ts").]',
    );
    expect(result.ok && result.metadata).toMatchObject({
      totalMatches: 300,
      totalFiles: 30,
      shownMatches: 100,
    });
  });

  it.skipIf(skip)("keeps within the byte cap", async () => {
    write(bed.projectRoot, "wide.txt", `${"hit ".repeat(100)}\n`.repeat(50));
    const limits: OutputLimits = { maxLines: 2000, maxBytes: 4096 };
    const output = outputOf(await tool.execute({ pattern: "hit" }, bed.context({ outputLimits: limits })));
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(4096);
    expect(output).toMatch(/not shown: the output limit \(4 KB\) was reached/);
  });

  it.skipIf(skip)("cuts a huge line around its match", async () => {
    write(bed.projectRoot, "min.js", `${"a".repeat(100_000)}NEEDLE${"b".repeat(100_000)}\n`);
    const output = outputOf(await tool.execute({ pattern: "NEEDLE" }, bed.context()));
    expect(output.length).toBeLessThan(700);
    expect(output).toContain("NEEDLE");
    expect(output).toMatch(/^min\.js:1: …a+NEEDLEb+… \[line of 200,006 characters cut\]$/);
  });

  it.skipIf(skip)("refuses an invalid regex with the reason", async () => {
    const error = errorOf(await tool.execute({ pattern: "foo(bar" }, bed.context()));
    expect(error.code).toBe("E_INVALID_ARGS");
    expect(error.message).toMatch(/^Invalid regular expression: .*(unclosed|group|parenthes)/is);
    expect(error.message).not.toContain("--pcre2");
  });

  it.skipIf(skip)("refuses paths outside the project", async () => {
    write(bed.outside, "secret.txt", "hello\n");
    const error = errorOf(await tool.execute({ pattern: "hello", path: "../outside" }, bed.context()));
    expect(error.code).toBe("E_PATH_TRAVERSAL");
    symlinkSync(bed.outside, path.join(bed.projectRoot, "escape"));
    expect(errorOf(await tool.execute({ pattern: "hello", path: "escape" }, bed.context())).code).toBe(
      "E_PATH_TRAVERSAL",
    );
  });

  it.skipIf(skip)("reports a missing path", async () => {
    const error = errorOf(await tool.execute({ pattern: "x", path: "nope" }, bed.context()));
    expect(error.code).toBe("E_FILE_NOT_FOUND");
  });

  it.skipIf(skip)("treats a pattern starting with - as a pattern", async () => {
    write(bed.projectRoot, "a.txt", "--version\n-rf\n");
    expect(outputOf(await tool.execute({ pattern: "-rf" }, bed.context()))).toBe("a.txt:2: -rf");
  });

  it.skipIf(skip)("stops at once when cancelled before it starts", async () => {
    write(bed.projectRoot, "a.txt", "hit\n");
    const controller = new AbortController();
    controller.abort();
    const error = errorOf(await tool.execute({ pattern: "hit" }, bed.context({ signal: controller.signal })));
    expect(error.code).toBe("E_CANCELLED");
  });
});

async function waitUntilDead(pid: number | undefined): Promise<void> {
  for (let attempt = 0; attempt < 50 && pid !== undefined && processAlive(pid); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(pid !== undefined && processAlive(pid)).toBe(false);
}

describe("search_files with a ripgrep that hangs", () => {
  let bed: ToolTestBed;
  let fakeRipgrep: string;
  beforeEach(() => {
    bed = createToolTestBed();
    // Stands in for a slow search: it starts a child in its group and writes both pids.
    fakeRipgrep = path.join(bed.outside, "rg");
    write(bed.outside, "rg", `#!/bin/sh\nsleep 60 &\necho "$$ $!" > "${bed.outside}/pids"\nwait\n`);
    chmodSync(fakeRipgrep, 0o755);
  });
  afterEach(() => bed.cleanup());

  async function pidsWritten(): Promise<number[]> {
    for (let attempt = 0; attempt < 100; attempt++) {
      try {
        const pids = readFileSync(path.join(bed.outside, "pids"), "utf8").trim().split(" ").map(Number);
        if (pids.length === 2) return pids;
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error("the fake ripgrep never started");
  }

  it("kills the whole process group on abort", async () => {
    const tool = createSearchFilesTool({ engine: "ripgrep", ripgrepPath: fakeRipgrep });
    const controller = new AbortController();
    const running = tool.execute({ pattern: "x" }, bed.context({ signal: controller.signal }));
    const [shell, child] = await pidsWritten();
    const started = Date.now();
    controller.abort();
    const error = errorOf(await running);
    expect(error.code).toBe("E_CANCELLED");
    expect(Date.now() - started).toBeLessThan(2000);
    await waitUntilDead(shell);
    await waitUntilDead(child);
  });

  it("gives up after its time limit", async () => {
    const tool = createSearchFilesTool({ engine: "ripgrep", ripgrepPath: fakeRipgrep, searchTimeoutMs: 300 });
    const result = await tool.execute({ pattern: "x" }, bed.context());
    const error = errorOf(result);
    expect(error.code).toBe("E_TOOL_TIMEOUT");
    expect(result.ok ? "" : result.output).toMatch(/stopped after 0 s; results are incomplete/);
    const [shell, child] = await pidsWritten();
    await waitUntilDead(shell);
    await waitUntilDead(child);
  });
});

describe("search_files (js engine) cancelled while it runs", () => {
  it("stops and reports the cancel", async () => {
    const bed = createToolTestBed();
    try {
      for (let index = 0; index < 400; index++)
        write(bed.projectRoot, `d${index % 20}/f${index}.txt`, "hit\n".repeat(50));
      const controller = new AbortController();
      const running = jsTool.execute({ pattern: "hit" }, bed.context({ signal: controller.signal }));
      setImmediate(() => controller.abort());
      const result = await running;
      expect(errorOf(result).code).toBe("E_CANCELLED");
      expect(result.ok ? "" : result.output).toContain("[The search was cancelled; results are incomplete.]");
    } finally {
      bed.cleanup();
    }
  });
});

describe("search_files engine choice", () => {
  it("falls back to the JavaScript engine when ripgrep is not on PATH", async () => {
    const bed = createToolTestBed();
    const savedPath = process.env.PATH;
    try {
      write(bed.projectRoot, "a.txt", "hit\n");
      process.env.PATH = bed.outside;
      const result = await searchFilesTool.execute({ pattern: "hit" }, bed.context());
      expect(result.ok && result.metadata?.engine).toBe("js");
      expect(outputOf(result)).toBe("a.txt:1: hit");
    } finally {
      process.env.PATH = savedPath;
      bed.cleanup();
    }
  });

  it("is a safe search tool", () => {
    expect(searchFilesTool.kind).toBe("search");
    expect(searchFilesTool.risk({ pattern: "x" }, { projectRoot: "/" })).toBe("safe");
  });
});
