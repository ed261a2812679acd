import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileTool } from "../../src/tools/builtin/readFile/readFile.js";
import { writeFileTool } from "../../src/tools/builtin/writeFile/writeFile.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

const inProject = (relative: string) => path.join(bed.projectRoot, relative);
const write = (filePath: string, contents: string) =>
  writeFileTool.execute({ path: filePath, contents }, bed.context());
const read = (filePath: string) => readFileTool.execute({ path: filePath }, bed.context());

describe("write_file", () => {
  it("creates a file in nested new directories with exactly the given bytes", async () => {
    const contents = "héllo\nwörld — ✓";
    expect(outputOf(await write("a/b/c/new.txt", contents))).toBe(
      `Created ${path.join("a", "b", "c", "new.txt")} (2 lines, ${Buffer.byteLength(contents)} bytes).`,
    );
    expect(readFileSync(inProject("a/b/c/new.txt"))).toEqual(Buffer.from(contents, "utf8"));
  });

  it("overwrites a file it has read, keeping its mode", async () => {
    writeFileSync(inProject("script.sh"), "echo old\n");
    chmodSync(inProject("script.sh"), 0o750);
    await read("script.sh");
    expect(outputOf(await write("script.sh", "echo new\n"))).toBe("Overwrote script.sh (1 line, 9 bytes).");
    expect(readFileSync(inProject("script.sh"), "utf8")).toBe("echo new\n");
    expect(statSync(inProject("script.sh")).mode & 0o7777).toBe(0o750);
  });

  it("refuses to overwrite a file that was never read", async () => {
    writeFileSync(inProject("existing.txt"), "keep me");
    const error = errorOf(await write("existing.txt", "replaced"));
    expect(error.code).toBe("E_STALE_FILE");
    expect(error.message).toContain("have not read it");
    expect(error.message).toBe(
      "existing.txt cannot be written: you have not read it in this session. Read it with read_file, then try again.",
    );
    expect(readFileSync(inProject("existing.txt"), "utf8")).toBe("keep me");
  });

  it("refuses to overwrite a file that changed on disk after it was read", async () => {
    writeFileSync(inProject("moving.txt"), "version 1\n");
    await read("moving.txt");
    writeFileSync(inProject("moving.txt"), "version 2, longer\n");
    const error = errorOf(await write("moving.txt", "mine\n"));
    expect(error.code).toBe("E_STALE_FILE");
    expect(error.message).toContain("changed on disk since you last read it");
    expect(readFileSync(inProject("moving.txt"), "utf8")).toBe("version 2, longer\n");
  });

  it("catches a same-size change made right after the read", async () => {
    writeFileSync(inProject("same-size.txt"), "aaaa");
    await read("same-size.txt");
    const { atime, mtime } = statSync(inProject("same-size.txt"));
    writeFileSync(inProject("same-size.txt"), "bbbb");
    // Put the old timestamp back: only the bytes can tell now.
    utimesSync(inProject("same-size.txt"), atime, mtime);
    expect(errorOf(await write("same-size.txt", "cccc")).code).toBe("E_STALE_FILE");
  });

  it("counts its own write as a read, so a second write needs no read", async () => {
    outputOf(await write("twice.txt", "one\n"));
    expect(outputOf(await write("twice.txt", "two\n"))).toBe("Overwrote twice.txt (1 line, 4 bytes).");
    expect(readFileSync(inProject("twice.txt"), "utf8")).toBe("two\n");
  });

  it("accepts identical contents and says so", async () => {
    writeFileSync(inProject("same.txt"), "same\n");
    await read("same.txt");
    expect(outputOf(await write("same.txt", "same\n"))).toBe(
      "Overwrote same.txt (1 line, 5 bytes; the contents were already identical).",
    );
  });

  it("leaves no temp files behind", async () => {
    mkdirSync(inProject("dir"));
    await write("dir/one.txt", "1");
    await write("dir/one.txt", "1 again");
    await write("dir/two.txt", "2");
    expect(readdirSync(inProject("dir")).sort()).toEqual(["one.txt", "two.txt"]);
  });

  it("writes through a symlink inside the project to its target, keeping the link", async () => {
    writeFileSync(inProject("real.txt"), "real\n");
    symlinkSync(inProject("real.txt"), inProject("alias.txt"));
    await read("alias.txt");
    outputOf(await write("alias.txt", "through the link\n"));
    expect(lstatSync(inProject("alias.txt")).isSymbolicLink()).toBe(true);
    expect(readFileSync(inProject("real.txt"), "utf8")).toBe("through the link\n");
  });

  it("refuses a directory and paths outside the project", async () => {
    mkdirSync(inProject("folder"));
    expect(errorOf(await write("folder", "x")).code).toBe("E_INVALID_ARGS");
    expect(errorOf(await write("../outside/evil.txt", "x")).code).toBe("E_PATH_TRAVERSAL");
    expect(readdirSync(bed.outside)).toEqual([]);
  });

  it("counts lines as an editor does", async () => {
    expect(outputOf(await write("empty.txt", ""))).toBe("Created empty.txt (0 lines, 0 bytes).");
    expect(outputOf(await write("three.txt", "a\nb\nc"))).toBe("Created three.txt (3 lines, 5 bytes).");
  });
});
