// Frames in what a program wrote to a terminal: Ink wraps each frame in synchronized output
// (`ESC[?2026h` … `ESC[?2026l`), so the terminal shows it at once. A frame repaints the whole
// screen when it clears it, or erases at least as many lines as the screen has.

const frameStart = "\x1b[?2026h";
const frameEnd = "\x1b[?2026l";
const screenClears = ["\x1b[2J", "\x1b[3J", "\x1b[1;1H\x1b[J", "\x1b[H\x1b[J", "\x1bc"];
const eraseLine = "\x1b[2K";

/**
 * The frames begun within [from, to] (performance.now() times) among `chunks` ({ at, data }), each
 * with the arrival time of the chunk that began it, and the bytes of those chunks.
 */
export function framesBetween(chunks, from, to) {
  const inWindow = chunks.filter((chunk) => chunk.at >= from && chunk.at <= to);
  const text = inWindow.map((chunk) => chunk.data).join("");
  const arrivals = [];
  let offset = 0;
  for (const chunk of inWindow) {
    arrivals.push({ end: offset + chunk.data.length, at: chunk.at });
    offset += chunk.data.length;
  }
  const frames = [];
  for (let start = text.indexOf(frameStart); start >= 0; start = text.indexOf(frameStart, start + 1)) {
    const end = text.indexOf(frameEnd, start);
    frames.push({
      at: arrivals.find((arrival) => arrival.end > start)?.at ?? to,
      text: text.slice(start + frameStart.length, end < 0 ? undefined : end),
    });
  }
  return { frames, bytes: inWindow.reduce((sum, chunk) => sum + Buffer.byteLength(chunk.data), 0) };
}

/** Whether a frame repaints the whole screen of `rows` rows. */
export function repaintsScreen(frame, rows) {
  if (screenClears.some((clear) => frame.includes(clear))) return true;
  return frame.split(eraseLine).length - 1 >= rows;
}
