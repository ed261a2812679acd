import path from "node:path";
import { atomicWriteFile } from "../fileSystem/atomicWrite.js";
import { utf8Head, utf8Tail } from "../fileSystem/utf8Slice.js";
import type { OutputLimits } from "./tool.js";

export interface SpillLocation {
  latheHome: string;
  sessionId: string;
  callId: string;
}

export interface CapOutputOptions {
  limits: OutputLimits;
  /** "head" keeps the beginning; "head_tail" keeps the first 20% and last 80% (shell output). */
  truncation: "head" | "head_tail";
  spill: SpillLocation;
}

export interface CappedOutput {
  text: string;
  truncated: boolean;
  /** Where the full text was saved, when it was cut and the save succeeded. */
  spillPath?: string;
}

/** Share of the kept lines and bytes given to the beginning under "head_tail". */
const headShare = 0.2;

/** Where a call's full output is saved: `$LATHE_HOME/tool-output/<session>/<call>.txt`. */
export function spillPathFor(spill: SpillLocation): string {
  return path.join(
    spill.latheHome,
    "tool-output",
    safeFileName(spill.sessionId),
    `${safeFileName(spill.callId)}.txt`,
  );
}

/**
 * Keeps a tool's text within the output limits (SPEC §4). When it is over, the full text is saved
 * to a spill file and the model gets the kept part plus a note saying what was left out and how to
 * read it. The note comes on top of the limits so the kept part is exactly what the limits allow.
 */
export async function capOutput(text: string, options: CapOutputOptions): Promise<CappedOutput> {
  const lines = splitLines(text);
  const totalBytes = Buffer.byteLength(text, "utf8");
  const { maxLines, maxBytes } = options.limits;
  if (lines.length <= maxLines && totalBytes <= maxBytes) return { text, truncated: false };

  const spillPath = spillPathFor(options.spill);
  let spillFailure: string | undefined;
  try {
    await atomicWriteFile(spillPath, text);
  } catch (error) {
    spillFailure = error instanceof Error ? error.message : String(error);
  }
  const savedTo = spillFailure === undefined ? spillPath : undefined;

  if (options.truncation === "head") {
    const head = takeHead(lines, maxLines, maxBytes);
    const firstOmittedLine = head.wholeLines + 1;
    const omitted = describeOmission(
      lines.length - head.wholeLines,
      totalBytes - Buffer.byteLength(head.text),
    );
    const note =
      `[... output cut: ${omitted} left out, from line ${firstOmittedLine}. ` +
      `${howToReadMore(savedTo, spillFailure, firstOmittedLine)}]`;
    const result: CappedOutput = { text: joinNonEmpty([head.text, note]), truncated: true };
    if (savedTo !== undefined) result.spillPath = savedTo;
    return result;
  }

  const keptLines = Math.min(maxLines, lines.length);
  const headByteBudget = Math.floor(maxBytes * headShare);
  // At least one line of head, and a cut first line offered to the tail as well, so even a single
  // giant line shows both of its ends.
  const head = takeHead(lines, Math.max(1, Math.floor(keptLines * headShare)), headByteBudget);
  const tail = takeTail(lines.slice(head.wholeLines), keptLines - head.wholeLines, maxBytes - headByteBudget);
  const omittedLines = lines.length - head.wholeLines - tail.wholeLines;
  const omittedBytes = totalBytes - Buffer.byteLength(head.text) - Buffer.byteLength(tail.text);
  const firstOmittedLine = head.wholeLines + 1;
  const note =
    `[... output cut: ${describeOmission(omittedLines, omittedBytes)} left out here, from line ${firstOmittedLine}. ` +
    `${howToReadMore(savedTo, spillFailure, firstOmittedLine)} ...]`;
  const result: CappedOutput = { text: joinNonEmpty([head.text, note, tail.text]), truncated: true };
  if (savedTo !== undefined) result.spillPath = savedTo;
  return result;
}

interface KeptPart {
  text: string;
  /** Lines kept in full; a cut line is in `text` but not counted here. */
  wholeLines: number;
}

/** Splits into lines; a final newline ends the last line rather than starting an empty one. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Leading lines within both budgets; the first line alone is cut when even it does not fit. */
function takeHead(lines: readonly string[], maxLines: number, maxBytes: number): KeptPart {
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    if (kept.length >= maxLines) break;
    const lineBytes = Buffer.byteLength(line) + (kept.length > 0 ? 1 : 0);
    if (bytes + lineBytes > maxBytes) {
      if (kept.length === 0) return { text: utf8Head(line, maxBytes), wholeLines: 0 };
      break;
    }
    kept.push(line);
    bytes += lineBytes;
  }
  return { text: kept.join("\n"), wholeLines: kept.length };
}

/** Trailing lines within both budgets; the last line alone is cut when even it does not fit. */
function takeTail(lines: readonly string[], maxLines: number, maxBytes: number): KeptPart {
  const kept: string[] = [];
  let bytes = 0;
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index] ?? "";
    if (kept.length >= maxLines) break;
    const lineBytes = Buffer.byteLength(line) + (kept.length > 0 ? 1 : 0);
    if (bytes + lineBytes > maxBytes) {
      if (kept.length === 0) return { text: utf8Tail(line, maxBytes), wholeLines: 0 };
      break;
    }
    kept.push(line);
    bytes += lineBytes;
  }
  return { text: kept.reverse().join("\n"), wholeLines: kept.length };
}

function joinNonEmpty(parts: readonly string[]): string {
  return parts.filter((part) => part !== "").join("\n");
}

function describeOmission(lines: number, bytes: number): string {
  const lineWord = lines === 1 ? "line" : "lines";
  return `${lines.toLocaleString("en-US")} ${lineWord} (${bytes.toLocaleString("en-US")} bytes)`;
}

function howToReadMore(
  spillPath: string | undefined,
  spillFailure: string | undefined,
  fromLine: number,
): string {
  if (spillPath === undefined)
    return `The full output could not be saved (${spillFailure ?? "unknown error"}).`;
  return (
    `Full output saved to ${spillPath}; ` +
    `read more with read_file on that path using offset and limit (e.g. offset ${fromLine}).`
  );
}

/** Keeps ids usable as file names whatever a provider put in them. */
function safeFileName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_") || "_";
}
