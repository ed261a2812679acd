import { ApiFailure } from "./api/httpApi.js";

/** How an error reads in a panel: the server's `code: message` when it sent one. */
export function describeFailure(error: unknown): string {
  if (error instanceof ApiFailure) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;

/** "just now", "5 min ago", "3 h ago", "2 d ago", then the date: side bars have no room for more. */
export function relativeTime(thenMs: number, nowMs: number): string {
  const elapsedMs = nowMs - thenMs;
  if (elapsedMs < minuteMs) return "just now";
  if (elapsedMs < hourMs) return `${Math.floor(elapsedMs / minuteMs)} min ago`;
  if (elapsedMs < dayMs) return `${Math.floor(elapsedMs / hourMs)} h ago`;
  if (elapsedMs < 7 * dayMs) return `${Math.floor(elapsedMs / dayMs)} d ago`;
  return new Date(thenMs).toLocaleDateString();
}

/** Under a second in whole milliseconds, otherwise seconds with two decimals (as `lathe trace` prints). */
export function formatDuration(ms: number): string {
  const wholeMs = Math.round(ms);
  return wholeMs < 1000 ? `${wholeMs} ms` : `${(ms / 1000).toFixed(2)} s`;
}

export function absoluteTime(ms: number): string {
  return new Date(ms).toLocaleString();
}
