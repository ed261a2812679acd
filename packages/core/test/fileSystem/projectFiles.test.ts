import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { atomicReplaceEntry } from "../../src/fileSystem/atomicWrite.js";
import { inProjectDirectory } from "../../src/fileSystem/projectDirectory.js";
import { removeProjectFile, writeProjectFile } from "../../src/fileSystem/projectFiles.js";
import { removeProjectTree } from "../../src/fileSystem/projectTreeRemoval.js";

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-project-files-")));
  root = path.join(base, "project");
  outside = path.join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(path.join(outside, "victim.txt"), "outside\n");
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** Every entry below `directory`, links not followed, as `name: contents`, `name/` or `name -> link`. */
function listing(directory: string, prefix = ""): string[] {
  return readdirSync(directory)
    .sort()
    .flatMap((name) => {
      const entry = path.join(directory, name);
      const relative = `${prefix}${name}`;
      const stats = lstatSync(entry);
      if (stats.isSymbolicLink()) return [`${relative} -> link`];
      if (stats.isDirectory()) return [`${relative}/`, ...listing(entry, `${relative}/`)];
      return [`${relative}: ${readFileSync(entry, "utf8")}`];
    });
}

describe("writeProjectFile", () => {
  it("creates the missing parent directories and writes the exact bytes", async () => {
    const written = await writeProjectFile(root, path.join(root, "a", "b", "c.txt"), "hello\n");
    expect(written.ok).toBe(true);
    if (!written.ok) return;
    expect(written.createdDirectories).toEqual([path.join(root, "a", "b"), path.join(root, "a")]);
    expect(written.value.size).toBe(6);
    expect(listing(root)).toEqual(["a/", "a/b/", "a/b/c.txt: hello\n"]);
  });

  it("keeps the mode of the file it replaces", async () => {
    const file = path.join(root, "secret.txt");
    writeFileSync(file, "old");
    chmodSync(file, 0o640);
    const written = await writeProjectFile(root, file, "new");
    expect(written.ok).toBe(true);
    expect(statSync(file).mode & 0o7777).toBe(0o640);
    expect(readFileSync(file, "utf8")).toBe("new");
  });

  it("refuses a parent component that is a symbolic link out of the project, writing nothing", async () => {
    symlinkSync(outside, path.join(root, "sub"));
    const written = await writeProjectFile(root, path.join(root, "sub", "victim.txt"), "pwned\n");
    expect(written).toMatchObject({ ok: false, error: { code: "E_PATH_TRAVERSAL" } });
    expect(listing(outside)).toEqual(["victim.txt: outside\n"]);
    expect(listing(root)).toEqual(["sub -> link"]);
  });

  it("refuses a relative link that climbs out, and a link deeper in the path", async () => {
    mkdirSync(path.join(root, "deep", "er"), { recursive: true });
    symlinkSync("../../../outside", path.join(root, "deep", "er", "up"));
    const written = await writeProjectFile(root, path.join(root, "deep", "er", "up", "new", "x.txt"), "x");
    expect(written).toMatchObject({ ok: false, error: { code: "E_PATH_TRAVERSAL" } });
    expect(listing(outside)).toEqual(["victim.txt: outside\n"]);
    expect(listing(path.join(root, "deep"))).toEqual(["er/", "er/up -> link"]);
  });

  it("follows a link that stays inside the project", async () => {
    mkdirSync(path.join(root, "real"));
    symlinkSync("real", path.join(root, "alias"));
    const written = await writeProjectFile(root, path.join(root, "alias", "x.txt"), "via alias");
    expect(written.ok).toBe(true);
    expect(readFileSync(path.join(root, "real", "x.txt"), "utf8")).toBe("via alias");
  });

  it("replaces a link in the last place with a file and leaves what it pointed at alone", async () => {
    const victim = path.join(outside, "victim.txt");
    chmodSync(victim, 0o755);
    symlinkSync(victim, path.join(root, "planted.txt"));
    const written = await writeProjectFile(root, path.join(root, "planted.txt"), "mine");
    expect(written.ok).toBe(true);
    expect(lstatSync(path.join(root, "planted.txt")).isFile()).toBe(true);
    expect(readFileSync(path.join(root, "planted.txt"), "utf8")).toBe("mine");
    // The mode of the file behind the link is not copied onto the new file.
    expect(statSync(path.join(root, "planted.txt")).mode & 0o111).toBe(0);
    expect(listing(outside)).toEqual(["victim.txt: outside\n"]);
  });

  it("refuses the project root itself and paths outside it", async () => {
    expect(await writeProjectFile(root, root, "x")).toMatchObject({
      ok: false,
      error: { code: "E_SECURITY_BLOCKED" },
    });
    expect(await writeProjectFile(root, path.join(outside, "victim.txt"), "x")).toMatchObject({
      ok: false,
      error: { code: "E_PATH_TRAVERSAL" },
    });
    expect(await writeProjectFile(root, `${root}-evil/x.txt`, "x")).toMatchObject({
      ok: false,
      error: { code: "E_PATH_TRAVERSAL" },
    });
    expect(listing(outside)).toEqual(["victim.txt: outside\n"]);
  });
});

describe("inProjectDirectory", () => {
  it("keeps working in the directory it opened after that directory is swapped for a link", async () => {
    mkdirSync(path.join(root, "sub"));
    const done = await inProjectDirectory(root, path.join(root, "sub", "late.txt"), async ({ entry }) => {
      // The swap an attacker makes between the check and the write.
      renameSync(path.join(root, "sub"), path.join(root, "sub.real"));
      symlinkSync(outside, path.join(root, "sub"));
      await writeFile(entry, "landed");
    });
    expect(done.ok).toBe(true);
    expect(listing(outside)).toEqual(["victim.txt: outside\n"]);
    expect(readFileSync(path.join(root, "sub.real", "late.txt"), "utf8")).toBe("landed");
  });

  it("refuses the rename once the directory it holds was moved out of the project", async () => {
    mkdirSync(path.join(root, "sub"));
    const moved = path.join(outside, "moved");
    const done = inProjectDirectory(root, path.join(root, "sub", "late.txt"), async ({ entry, confirm }) => {
      renameSync(path.join(root, "sub"), moved);
      await atomicReplaceEntry(entry, "landed", { beforeRename: confirm });
    });
    await expect(done).rejects.toMatchObject({ code: "E_PATH_TRAVERSAL" });
    expect(listing(outside)).toEqual(["moved/", "victim.txt: outside\n"]);
  });

  it("takes back the directories it created when the operation fails", async () => {
    mkdirSync(path.join(root, "kept"));
    const failing = inProjectDirectory(
      root,
      path.join(root, "kept", "new", "deeper", "x.txt"),
      async () => {
        throw new Error("disk full");
      },
      { createParents: true },
    );
    await expect(failing).rejects.toThrow("disk full");
    expect(listing(root)).toEqual(["kept/"]);
  });

  it("reports a missing parent when it may not create one", async () => {
    const result = await inProjectDirectory(root, path.join(root, "nope", "x.txt"), async () => "ran");
    expect(result).toMatchObject({ ok: false, error: { code: "E_FILE_NOT_FOUND" } });
    expect(existsSync(path.join(root, "nope"))).toBe(false);
  });
});

describe("removeProjectFile and removeProjectTree", () => {
  it("removes a link itself, never what it points at", async () => {
    symlinkSync(path.join(outside, "victim.txt"), path.join(root, "link.txt"));
    const removed = await removeProjectFile(root, path.join(root, "link.txt"));
    expect(removed.ok).toBe(true);
    expect(listing(root)).toEqual([]);
    expect(listing(outside)).toEqual(["victim.txt: outside\n"]);
  });

  it("refuses to remove through a parent link leading out", async () => {
    symlinkSync(outside, path.join(root, "sub"));
    const removed = await removeProjectFile(root, path.join(root, "sub", "victim.txt"));
    expect(removed).toMatchObject({ ok: false, error: { code: "E_PATH_TRAVERSAL" } });
    expect(listing(outside)).toEqual(["victim.txt: outside\n"]);
  });

  it("removes a tree, unlinking the links inside it without entering them", async () => {
    mkdirSync(path.join(root, "tree", "inner"), { recursive: true });
    writeFileSync(path.join(root, "tree", "a.txt"), "a");
    writeFileSync(path.join(root, "tree", "inner", "b.txt"), "b");
    symlinkSync(outside, path.join(root, "tree", "inner", "escape"));
    writeFileSync(path.join(root, "keep.txt"), "keep");
    const removed = await removeProjectTree(root, path.join(root, "tree"));
    expect(removed.ok).toBe(true);
    expect(listing(root)).toEqual(["keep.txt: keep"]);
    expect(listing(outside)).toEqual(["victim.txt: outside\n"]);
  });
});
