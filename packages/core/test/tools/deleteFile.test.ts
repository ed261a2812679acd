import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deleteFileTool } from "../../src/tools/builtin/deleteFile/deleteFile.js";
import { ToolRegistry } from "../../src/tools/toolRegistry.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

const inProject = (relative: string) => path.join(bed.projectRoot, relative);
const put = (relative: string, contents: string) => {
  mkdirSync(path.dirname(inProject(relative)), { recursive: true });
  writeFileSync(inProject(relative), contents);
};
const remove = (args: { path: string; recursive?: boolean }) => deleteFileTool.execute(args, bed.context());

describe("delete_file", () => {
  it("deletes a file and says how many bytes went", async () => {
    put("src/old.ts", "x".repeat(1234));
    const result = await remove({ path: "src/old.ts" });
    expect(outputOf(result)).toBe(`Deleted ${path.join("src", "old.ts")} (1,234 bytes).`);
    expect(result.ok && result.metadata).toEqual({
      path: path.join("src", "old.ts"),
      kind: "file",
      files: 1,
      directories: 0,
      bytes: 1234,
    });
    expect(existsSync(inProject("src/old.ts"))).toBe(false);
    expect(existsSync(inProject("src"))).toBe(true);
  });

  it("needs recursive for a directory, then deletes it all", async () => {
    put("build/a.js", "aaaa");
    put("build/sub/b.js", "bb");
    put("build/sub/deeper/c.js", "c");
    const refused = errorOf(await remove({ path: "build" }));
    expect(refused.code).toBe("E_INVALID_ARGS");
    expect(refused.message).toBe(
      "build is a directory (3 files in 2 subdirectories, 7 bytes). Pass recursive: true to delete it and everything in it.",
    );
    expect(existsSync(inProject("build/sub/deeper/c.js"))).toBe(true);

    const result = await remove({ path: "build", recursive: true });
    expect(outputOf(result)).toBe("Deleted the directory build (3 files in 2 subdirectories, 7 bytes).");
    expect(result.ok && result.metadata).toEqual({
      path: "build",
      kind: "directory",
      files: 3,
      directories: 2,
      bytes: 7,
    });
    expect(readdirSync(bed.projectRoot)).toEqual([]);
  });

  it("deletes an empty directory with recursive and describes it", async () => {
    mkdirSync(inProject("empty"));
    expect(errorOf(await remove({ path: "empty" })).message).toBe(
      "empty is a directory (empty). Pass recursive: true to delete it and everything in it.",
    );
    expect(outputOf(await remove({ path: "empty", recursive: true }))).toBe(
      "Deleted the directory empty (empty).",
    );
  });

  it("refuses the project root however it is named", async () => {
    put("keep.txt", "keep");
    for (const name of [".", "./", bed.projectRoot, "src/..", ""]) {
      const result = await remove({ path: name || "." });
      expect(errorOf(result).code).toBe("E_SECURITY_BLOCKED");
    }
    expect(errorOf(await remove({ path: ".", recursive: true })).message).toBe(
      ". is the project root; it cannot be deleted. Name the files or directories inside it instead.",
    );
    expect(readFileSync(inProject("keep.txt"), "utf8")).toBe("keep");
  });

  it("refuses a symbolic link that leads outside the project, and paths outside it", async () => {
    writeFileSync(path.join(bed.outside, "precious.txt"), "precious");
    symlinkSync(path.join(bed.outside, "precious.txt"), inProject("link-out.txt"));
    symlinkSync(bed.outside, inProject("dir-out"));
    expect(errorOf(await remove({ path: "link-out.txt" })).code).toBe("E_PATH_TRAVERSAL");
    expect(errorOf(await remove({ path: "dir-out", recursive: true })).code).toBe("E_PATH_TRAVERSAL");
    expect(errorOf(await remove({ path: "dir-out/precious.txt" })).code).toBe("E_PATH_TRAVERSAL");
    expect(errorOf(await remove({ path: "../outside/precious.txt" })).code).toBe("E_PATH_TRAVERSAL");
    expect(errorOf(await remove({ path: path.join(bed.outside, "precious.txt") })).code).toBe(
      "E_PATH_TRAVERSAL",
    );
    expect(readFileSync(path.join(bed.outside, "precious.txt"), "utf8")).toBe("precious");
    expect(lstatSync(inProject("link-out.txt")).isSymbolicLink()).toBe(true);
  });

  it("deletes a symbolic link inside the project, not its target", async () => {
    put("real/data.txt", "data");
    symlinkSync(inProject("real"), inProject("alias"));
    expect(outputOf(await remove({ path: "alias", recursive: true }))).toBe(
      "Deleted the symbolic link alias; what it pointed to was left alone.",
    );
    expect(existsSync(inProject("alias"))).toBe(false);
    expect(readFileSync(inProject("real/data.txt"), "utf8")).toBe("data");
  });

  it("does not follow symbolic links inside a directory it deletes", async () => {
    writeFileSync(path.join(bed.outside, "precious.txt"), "precious");
    put("tree/own.txt", "own");
    symlinkSync(bed.outside, inProject("tree/link-out"));
    expect(outputOf(await remove({ path: "tree", recursive: true }))).toBe(
      "Deleted the directory tree (2 files, 3 bytes).",
    );
    expect(readFileSync(path.join(bed.outside, "precious.txt"), "utf8")).toBe("precious");
  });

  it("answers a missing path with E_FILE_NOT_FOUND and suggestions", async () => {
    put("notes.md", "");
    const error = errorOf(await remove({ path: "note.md" }));
    expect(error.code).toBe("E_FILE_NOT_FOUND");
    expect(error.message).toBe("File not found: note.md. Did you mean: notes.md?");
  });

  it("refuses NUL bytes and bad arguments, changing nothing", async () => {
    put("a.txt", "a");
    expect(errorOf(await remove({ path: "a.txt\0" })).code).toBe("E_SECURITY_BLOCKED");
    const registry = new ToolRegistry([deleteFileTool]);
    for (const raw of ["{}", '{"path": ""}', '{"path": 1}', '{"path": "a.txt", "recursive": "yes"}', "[]"]) {
      const result = registry.validate("delete_file", raw);
      expect(result.ok || result.error.code).toBe("E_INVALID_ARGS");
    }
    expect(readdirSync(bed.projectRoot)).toEqual(["a.txt"]);
    expect(deleteFileTool.kind).toBe("delete");
    expect(deleteFileTool.risk({ path: "a.txt" }, { projectRoot: bed.projectRoot })).toBe("high");
  });
});
