import { createHash } from "node:crypto";
import { StringDecoder } from "node:string_decoder";

export interface WindowLine {
  text: string;
  /** True when the line was longer than the character limit and `text` holds its beginning. */
  cut: boolean;
  /** Length of the whole line in bytes, line ending excluded. */
  bytes: number;
}

export interface LineWindow {
  /** Lines `from`, `from + 1`, … as far as the file and `count` go. */
  lines: WindowLine[];
  totalLines: number;
  /** sha256 of every byte read, hex. */
  hash: string;
  bytesRead: number;
}

/** Where the bytes come from: an open file, or text an editor holds (`bytesSource`). */
export interface ByteSource {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
}

/** Bytes in memory, read like a file. */
export function bytesSource(bytes: Buffer): ByteSource {
  return {
    async read(buffer, offset, length, position) {
      return { bytesRead: bytes.copy(buffer, offset, position, Math.min(bytes.length, position + length)) };
    },
  };
}

const chunkBytes = 64 * 1024;
/** UTF-8 needs at most 4 bytes per character. */
const maxBytesPerChar = 4;

/**
 * Reads a whole file once, in chunks, keeping only the requested lines (each cut to
 * `maxLineChars`), so a file of any size can be read in parts while the hash and line count still
 * cover all of it.
 */
export async function readLineWindow(
  handle: ByteSource,
  from: number,
  count: number,
  maxLineChars: number,
): Promise<LineWindow> {
  const hash = createHash("sha256");
  const kept: WindowLine[] = [];
  const keptBytesLimit = maxLineChars * maxBytesPerChar;
  const buffer = Buffer.alloc(chunkBytes);
  let lineNumber = 1;
  let pieces: Buffer[] = [];
  let storedBytes = 0;
  let lineBytes = 0;
  let bytesRead = 0;

  const isWanted = (line: number) => line >= from && line < from + count;
  const finishLine = () => {
    if (isWanted(lineNumber)) kept.push(decodeLine(Buffer.concat(pieces), lineBytes, maxLineChars));
    pieces = [];
    storedBytes = 0;
    lineBytes = 0;
  };

  for (;;) {
    const { bytesRead: readNow } = await handle.read(buffer, 0, chunkBytes, bytesRead);
    if (readNow === 0) break;
    const chunk = buffer.subarray(0, readNow);
    hash.update(chunk);
    bytesRead += readNow;
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      if (isWanted(lineNumber) && storedBytes < keptBytesLimit) {
        const piece = chunk.subarray(start, Math.min(end, start + keptBytesLimit - storedBytes));
        pieces.push(Buffer.from(piece));
        storedBytes += piece.length;
      }
      lineBytes += end - start;
      if (newline === -1) break;
      finishLine();
      lineNumber++;
      start = newline + 1;
    }
  }
  // A file that does not end with a newline still ends with a line.
  const hasUnterminatedLine = lineBytes > 0;
  if (hasUnterminatedLine) finishLine();
  return {
    lines: kept,
    totalLines: hasUnterminatedLine ? lineNumber : lineNumber - 1,
    hash: hash.digest("hex"),
    bytesRead,
  };
}

function decodeLine(stored: Buffer, lineBytes: number, maxLineChars: number): WindowLine {
  const storedAll = stored.length === lineBytes;
  // A decoder holds back a character cut at the end of the stored part instead of mangling it.
  let text = storedAll ? stored.toString("utf8") : new StringDecoder("utf8").write(stored);
  if (storedAll && text.endsWith("\r")) text = text.slice(0, -1);
  const characters = Array.from(text);
  if (storedAll && characters.length <= maxLineChars) return { text, cut: false, bytes: lineBytes };
  return { text: characters.slice(0, maxLineChars).join(""), cut: true, bytes: lineBytes };
}
