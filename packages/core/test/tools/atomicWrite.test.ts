import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { atomicWriteFile } from "../../src/fileSystem/atomicWrite.js";
import { createToolTestBed, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

describe("atomicWriteFile", () => {
  it("creates parent directories and writes the exact bytes", async () => {
    const file = path.join(bed.projectRoot, "x", "y", "z.bin");
    const bytes = Buffer.from([0, 1, 2, 255, 10]);
    await atomicWriteFile(file, bytes);
    expect(readFileSync(file)).toEqual(bytes);
    expect(readdirSync(path.dirname(file))).toEqual(["z.bin"]);
  });

  it("keeps the mode of the file it replaces", async () => {
    const file = path.join(bed.projectRoot, "secret.txt");
    writeFileSync(file, "old");
    chmodSync(file, 0o600);
    await atomicWriteFile(file, "new");
    expect(statSync(file).mode & 0o7777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toBe("new");
  });

  it("removes its temp file when the rename fails", async () => {
    const directory = path.join(bed.projectRoot, "d");
    const target = path.join(directory, "target");
    // A non-empty directory at the target makes rename fail after the temp file is written.
    mkdirSync(path.join(target, "inner"), { recursive: true });
    await expect(atomicWriteFile(target, "x")).rejects.toThrow();
    expect(readdirSync(directory)).toEqual(["target"]);
  });
});
