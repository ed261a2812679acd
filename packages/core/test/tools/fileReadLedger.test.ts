import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileReadLedger, sha256Hex } from "../../src/tools/fileReadLedger.js";
import { createToolTestBed, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

function noteCurrent(ledger: FileReadLedger, filePath: string): void {
  const stats = statSync(filePath);
  ledger.noteRead(filePath, {
    mtimeMs: stats.mtimeMs,
    size: stats.size,
    hash: sha256Hex(readFileSync(filePath)),
  });
}

describe("FileReadLedger", () => {
  it("knows files never read", async () => {
    expect(await new FileReadLedger().checkFresh(path.join(bed.projectRoot, "x"))).toBe("never_read");
  });

  it("is fresh for an untouched file and changed for a new size", async () => {
    const file = path.join(bed.projectRoot, "a.txt");
    writeFileSync(file, "one");
    const ledger = new FileReadLedger();
    noteCurrent(ledger, file);
    expect(await ledger.checkFresh(file)).toBe("fresh");
    writeFileSync(file, "one two");
    expect(await ledger.checkFresh(file)).toBe("changed");
  });

  it("trusts an old mtime and hashes only when the mtime moved", async () => {
    const file = path.join(bed.projectRoot, "b.txt");
    writeFileSync(file, "same");
    const anHourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(file, anHourAgo, anHourAgo);
    const ledger = new FileReadLedger();
    noteCurrent(ledger, file);
    expect(await ledger.checkFresh(file)).toBe("fresh");
    // Touched, same bytes: still fresh.
    utimesSync(file, new Date(), new Date());
    expect(await ledger.checkFresh(file)).toBe("fresh");
    // Same size, other bytes, new mtime: changed.
    writeFileSync(file, "diff");
    expect(await ledger.checkFresh(file)).toBe("changed");
  });

  it("counts a deleted file as changed", async () => {
    const file = path.join(bed.projectRoot, "c.txt");
    writeFileSync(file, "x");
    const ledger = new FileReadLedger();
    noteCurrent(ledger, file);
    rmSync(file);
    expect(await ledger.checkFresh(file)).toBe("changed");
  });
});
