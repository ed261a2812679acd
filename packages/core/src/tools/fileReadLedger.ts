import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";

/** What we knew of a file when we last read or wrote it. */
export interface FileSnapshot {
  mtimeMs: number;
  size: number;
  /** sha256 of the bytes, hex. */
  hash: string;
}

export type FileFreshness = "fresh" | "never_read" | "changed";

interface LedgerEntry extends FileSnapshot {
  notedAtMs: number;
}

/**
 * A change made within this window of the moment we noted a file can leave its mtime and size
 * unchanged (coarse timestamps, same-length rewrite), so only the hash can tell.
 */
const racyWindowMs = 2000;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Which files the model has seen in this session and in what state, so a write never silently
 * overwrites changes the model has not read (SPEC §4, `E_STALE_FILE`). Keys are absolute real
 * paths, as produced by the path guard.
 */
export class FileReadLedger {
  /**
   * False outside a session (the `lathe tool` command), where nothing can have been read first,
   * so tools skip the read-before-write check; reads and writes are still noted.
   */
  readonly enforced: boolean;
  private readonly entries = new Map<string, LedgerEntry>();

  constructor(options: { enforce?: boolean } = {}) {
    this.enforced = options.enforce ?? true;
  }

  noteRead(absPath: string, snapshot: FileSnapshot): void {
    this.entries.set(absPath, { ...snapshot, notedAtMs: Date.now() });
  }

  /** Our own write leaves the file exactly as the model intended it, which is as good as a read. */
  noteWrite(absPath: string, snapshot: FileSnapshot): void {
    this.noteRead(absPath, snapshot);
  }

  hasRead(absPath: string): boolean {
    return this.entries.has(absPath);
  }

  async checkFresh(absPath: string): Promise<FileFreshness> {
    const entry = this.entries.get(absPath);
    if (entry === undefined) return "never_read";

    let current: { mtimeMs: number; size: number };
    try {
      current = await stat(absPath);
    } catch {
      return "changed";
    }
    if (current.size !== entry.size) return "changed";
    const mtimeUnchanged = current.mtimeMs === entry.mtimeMs;
    const mtimeTrustworthy = entry.notedAtMs - entry.mtimeMs > racyWindowMs;
    if (mtimeUnchanged && mtimeTrustworthy) return "fresh";

    // Same size but a touched or untrustworthy mtime: the bytes decide.
    let bytes: Buffer;
    try {
      bytes = await readFile(absPath);
    } catch {
      return "changed";
    }
    if (sha256Hex(bytes) !== entry.hash) return "changed";
    this.entries.set(absPath, { ...entry, mtimeMs: current.mtimeMs, notedAtMs: Date.now() });
    return "fresh";
  }
}
