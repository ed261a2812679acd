import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseMentions } from "@lathe/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, startTestServer, type TestServer } from "./serverHarness.js";

let t: TestServer;
let root: string;
let elsewhere: string;

const fixture: Record<string, string> = {
  ".gitignore": "*.log\nsecret/\n",
  "README.md": "# Fixture\n",
  Makefile: "all:\n",
  "Zeta.md": "z\n",
  "b.txt": "b\n",
  "debug.log": "ignored by the .gitignore\n",
  "notes with space.md": "n\n",
  "src/app.ts": "export {};\n",
  "src/App.test.ts": "export {};\n",
  "src/util/strings.ts": "export {};\n",
  "src/util/app-helpers.ts": "export {};\n",
  "secret/key.txt": "ignored folder\n",
  "node_modules/pkg/index.js": "ignored by name\n",
  ".git/HEAD": "ref: refs/heads/main\n",
  ".github/workflows/ci.yml": "on: push\n",
  "docs/guide.md": "g\n",
  "docs/app notes.md": "a\n",
};

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "lathe-browse-")));
  for (const [path, text] of Object.entries(fixture)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  elsewhere = realpathSync(mkdtempSync(join(tmpdir(), "lathe-elsewhere-")));
  writeFileSync(join(elsewhere, "private.txt"), "not the project's\n");
  symlinkSync(elsewhere, join(root, "outside"));
  t = await startTestServer({});
  // The project routes serve only projects the user opened.
  await t.api("POST", "/api/projects", { projectRoot: root });
});
afterAll(async () => {
  await t.close();
});

const files = (dir?: string) =>
  t.api(
    "GET",
    `/api/files?${new URLSearchParams({ projectRoot: root, ...(dir === undefined ? {} : { dir }) })}`,
  );
const mentions = async (q: string) =>
  (await t.api("GET", `/api/mentions?${new URLSearchParams({ projectRoot: root, q })}`)).body as {
    items: { kind: string; label: string; insert: string; detail?: string }[];
  };

const dir = (path: string) => ({ name: path.split("/").at(-1), path, kind: "dir" });
const file = (path: string) => ({ name: path.split("/").at(-1), path, kind: "file" });

describe("GET /api/files", () => {
  it("lists one level, folders first, alphabetical, without what git ignores", async () => {
    expect(await files()).toEqual({
      status: 200,
      body: {
        dir: "",
        entries: [
          dir(".github"),
          dir("docs"),
          dir("outside"),
          dir("src"),
          file(".gitignore"),
          file("b.txt"),
          file("Makefile"),
          file("notes with space.md"),
          file("README.md"),
          file("Zeta.md"),
        ],
      },
    });
    expect(await files("src")).toEqual({
      status: 200,
      body: { dir: "src", entries: [dir("src/util"), file("src/App.test.ts"), file("src/app.ts")] },
    });
    expect((await files("./src/util/")).body).toEqual({
      dir: "src/util",
      entries: [file("src/util/app-helpers.ts"), file("src/util/strings.ts")],
    });
  });

  it("lists an ignored folder whole when it is asked for by name", async () => {
    expect((await files("secret")).body).toEqual({ dir: "secret", entries: [file("secret/key.txt")] });
  });

  it("refuses folders outside the project, through .. , an absolute path or a link", async () => {
    for (const outside of ["..", "../", elsewhere, "outside", "outside/"]) {
      const answer = await files(outside);
      expect(answer.status, outside).toBe(400);
      expect(errorCode(answer)).toBe("E_PATH_TRAVERSAL");
    }
    const missing = await files("nope");
    expect(missing.status).toBe(404);
    expect(errorCode(missing)).toBe("E_FILE_NOT_FOUND");
    const notAFolder = await files("b.txt");
    expect(notAFolder.status).toBe(400);
    expect(errorCode(notAFolder)).toBe("E_INVALID_ARGS");
  });
});

describe("GET /api/mentions", () => {
  const keywordItems = [
    { kind: "web", label: "@web", insert: "@web", detail: "search the web" },
    { kind: "git", label: "@git", insert: "@git", detail: "the diff, the log or a commit" },
    { kind: "lints", label: "@lints", insert: "@lints", detail: "the current lint errors" },
    { kind: "terminal", label: "@terminal", insert: "@terminal", detail: "recent terminal output" },
    { kind: "chat", label: "@chat", insert: "@chat", detail: "another session's conversation" },
    { kind: "file", label: "@file", insert: "@file", detail: "a file's contents" },
    { kind: "folder", label: "@folder", insert: "@folder", detail: "a folder's tree" },
    { kind: "symbol", label: "@symbol", insert: "@symbol", detail: "a code symbol's definition" },
    { kind: "rule", label: "@rule", insert: "@rule", detail: "a project rule" },
    { kind: "url", label: "@url", insert: "@url", detail: "a web page" },
  ];

  it("offers every kind, then the shortest paths, for a bare @", async () => {
    expect((await mentions("")).items).toEqual([
      ...keywordItems,
      { kind: "folder", label: "src/", insert: "@folder src" },
      { kind: "folder", label: "docs/", insert: "@folder docs" },
      { kind: "file", label: "b.txt", insert: "@b.txt" },
      { kind: "folder", label: ".github/", insert: "@folder .github" },
      { kind: "file", label: "Zeta.md", insert: "@Zeta.md" },
      { kind: "file", label: "Makefile", insert: "@file Makefile" },
      { kind: "folder", label: "src/util/", insert: "@folder src/util" },
      { kind: "file", label: "README.md", insert: "@README.md" },
      { kind: "file", label: ".gitignore", insert: "@.gitignore" },
      { kind: "file", label: "src/app.ts", insert: "@src/app.ts" },
    ]);
  });

  it("matches paths by substring without case, shorter first, quoting paths with spaces", async () => {
    const expected = [
      { kind: "file", label: "src/app.ts", insert: "@src/app.ts" },
      { kind: "file", label: "src/App.test.ts", insert: "@src/App.test.ts" },
      { kind: "file", label: "docs/app notes.md", insert: '@file "docs/app notes.md"' },
      { kind: "file", label: "src/util/app-helpers.ts", insert: "@src/util/app-helpers.ts" },
    ];
    expect((await mentions("app")).items).toEqual(expected);
    expect((await mentions("APP")).items).toEqual(expected);
    expect((await mentions("fi")).items).toEqual([
      keywordItems[5],
      { kind: "file", label: "Makefile", insert: "@file Makefile" },
    ]);
    expect((await mentions("space")).items).toEqual([
      { kind: "file", label: "notes with space.md", insert: '@file "notes with space.md"' },
    ]);
    // Ignored files, the link out of the project and what lies behind it never appear.
    for (const hidden of ["debug", "key", "index.js", "HEAD", "private", "outside"]) {
      expect((await mentions(hidden)).items, hidden).toEqual([]);
    }
  });

  it("completes the path after @file or @folder in that form, and nothing after other kinds", async () => {
    expect((await mentions("file src/u")).items).toEqual([
      { kind: "file", label: "src/util/strings.ts", insert: "@file src/util/strings.ts" },
      { kind: "file", label: "src/util/app-helpers.ts", insert: "@file src/util/app-helpers.ts" },
    ]);
    expect((await mentions('file "notes w')).items).toEqual([
      { kind: "file", label: "notes with space.md", insert: '@file "notes with space.md"' },
    ]);
    expect((await mentions("folder s")).items).toEqual([
      { kind: "folder", label: "src/", insert: "@folder src" },
      { kind: "folder", label: "docs/", insert: "@folder docs" },
      { kind: "folder", label: "src/util/", insert: "@folder src/util" },
      { kind: "folder", label: ".github/workflows/", insert: "@folder .github/workflows" },
    ]);
    expect((await mentions("web rust async")).items).toEqual([]);
  });

  it("inserts mentions the message parser reads back as the same path", async () => {
    const items = [
      ...(await mentions("")).items,
      ...(await mentions("app")).items,
      ...(await mentions("s")).items,
    ];
    // Kind keywords carry a detail; paths do not.
    const paths = items.filter((item) => item.detail === undefined);
    expect(paths.length).toBeGreaterThan(10);
    for (const item of paths) {
      const parsed = parseMentions(`look at ${item.insert} please`);
      expect(parsed, item.insert).toHaveLength(1);
      expect(parsed[0]!.kind, item.insert).toBe(item.kind);
      expect(parsed[0]!.argument, item.insert).toBe(item.label.replace(/\/$/, ""));
    }
  });

  it("offers at most 20 items", async () => {
    const big = realpathSync(mkdtempSync(join(tmpdir(), "lathe-browse-big-")));
    mkdirSync(join(big, "gen"));
    for (let i = 10; i < 40; i++) writeFileSync(join(big, "gen", `f${i}.txt`), "");
    await t.api("POST", "/api/projects", { projectRoot: big });
    const answer = await t.api("GET", `/api/mentions?${new URLSearchParams({ projectRoot: big, q: "f" })}`);
    const items = (answer.body as { items: { label: string }[] }).items;
    expect(items.map((item) => item.label)).toEqual([
      "@file",
      "@folder",
      ...Array.from({ length: 18 }, (_, i) => `gen/f${i + 10}.txt`),
    ]);
  });
});
