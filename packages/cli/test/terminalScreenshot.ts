import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { IBuffer, IBufferCell } from "@xterm/headless";
import type { Browser } from "playwright-core";
import type { Terminal } from "./terminalScreen.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
/** Screenshots of the terminal UI's states, for people to look at; `test-output/` is ignored by git. */
const terminalScreenshotDir = join(repoRoot, "test-output", "terminal");

/** xterm.js's default colours: the Tango palette on black. */
const defaultForeground = "#ffffff";
const defaultBackground = "#000000";
const ansiColours = [
  "#2e3436",
  "#cc0000",
  "#4e9a06",
  "#c4a000",
  "#3465a4",
  "#75507b",
  "#06989a",
  "#d3d7cf",
  "#555753",
  "#ef2929",
  "#8ae234",
  "#fce94f",
  "#729fcf",
  "#ad7fa8",
  "#34e2e2",
  "#eeeeec",
];
const cubeLevels = [0, 95, 135, 175, 215, 255];
const fontSizePx = 14;
const lineHeightPx = 17;

export interface TerminalScreenshot {
  /** The rows on display, trimmed at the right, as saved in `<name>.txt`. */
  text: string;
  textFile: string;
  pngFile: string;
}

/**
 * Saves what the terminal displays now as `<name>.txt` (its text) and `<name>.png` (its cells with
 * their colours and attributes, drawn by `browser`) in `terminalScreenshotDir`.
 */
export async function saveTerminalScreenshot(
  browser: Browser,
  terminal: Terminal,
  name: string,
): Promise<TerminalScreenshot> {
  mkdirSync(terminalScreenshotDir, { recursive: true });
  const text = terminal.viewport();
  const textFile = join(terminalScreenshotDir, `${name}.txt`);
  const pngFile = join(terminalScreenshotDir, `${name}.png`);
  writeFileSync(textFile, `${text}\n`);
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await page.setContent(screenHtml(terminal.buffer()));
    await page.locator("#screen").screenshot({ path: pngFile });
  } finally {
    await page.close();
  }
  return { text, textFile, pngFile };
}

/** An HTML page drawing the rows on display of `buffer`, one fixed-width box per cell. */
function screenHtml(buffer: IBuffer): string {
  const rows: string[] = [];
  const cell = buffer.getNullCell();
  for (let y = buffer.baseY; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    const cells: string[] = [];
    for (let x = 0; line && x < line.length; x++) {
      line.getCell(x, cell);
      const width = cell.getWidth();
      // The second half of a wide character: its first half covers it.
      if (width === 0) continue;
      const style = cellStyle(cell);
      const classes = width === 2 ? ' class="wide"' : "";
      cells.push(
        `<span${classes}${style ? ` style="${style}"` : ""}>${escapeHtml(cell.getChars() || " ")}</span>`,
      );
    }
    rows.push(`<div class="row">${cells.join("")}</div>`);
  }
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 0; background: ${defaultBackground}; }
#screen { display: inline-block; padding: 8px; background: ${defaultBackground}; color: ${defaultForeground};
  font: ${fontSizePx}px/${lineHeightPx}px "DejaVu Sans Mono", monospace; }
.row { display: flex; height: ${lineHeightPx}px; white-space: pre; }
.row > span { flex: none; width: 1ch; overflow: visible; }
.row > span.wide { width: 2ch; }
</style></head><body><div id="screen">${rows.join("")}</div></body></html>`;
}

/** The CSS of a cell that is not plain default text: colours, inverse, bold, dim, italic, lines. */
function cellStyle(cell: IBufferCell): string {
  let foreground = colourOf(cell.isFgDefault(), cell.isFgRGB(), cell.getFgColor()) ?? defaultForeground;
  let background = colourOf(cell.isBgDefault(), cell.isBgRGB(), cell.getBgColor()) ?? defaultBackground;
  if (cell.isInverse()) [foreground, background] = [background, foreground];
  if (cell.isInvisible()) foreground = background;
  const rules: string[] = [];
  if (foreground !== defaultForeground) rules.push(`color:${foreground}`);
  if (background !== defaultBackground) rules.push(`background:${background}`);
  if (cell.isBold()) rules.push("font-weight:bold");
  if (cell.isItalic()) rules.push("font-style:italic");
  if (cell.isDim()) rules.push("opacity:0.5");
  const lines = [
    cell.isUnderline() ? "underline" : "",
    cell.isStrikethrough() ? "line-through" : "",
    cell.isOverline() ? "overline" : "",
  ].filter(Boolean);
  if (lines.length > 0) rules.push(`text-decoration:${lines.join(" ")}`);
  return rules.join(";");
}

/** A cell colour as CSS: undefined for the default, else a palette entry or a truecolour. */
function colourOf(isDefault: boolean, isRgb: boolean, value: number): string | undefined {
  if (isDefault) return undefined;
  if (isRgb) return `#${value.toString(16).padStart(6, "0")}`;
  return paletteColour(value);
}

/** Entry `index` of the 256-colour palette: 16 named colours, a 6×6×6 cube, 24 greys. */
function paletteColour(index: number): string {
  if (index < 16) return ansiColours[index] ?? defaultForeground;
  if (index < 232) {
    const n = index - 16;
    const levels = [Math.floor(n / 36), Math.floor(n / 6) % 6, n % 6].map((level) => cubeLevels[level] ?? 0);
    return `#${levels.map(hexByte).join("")}`;
  }
  return `#${hexByte(8 + (index - 232) * 10).repeat(3)}`;
}

function hexByte(value: number): string {
  return value.toString(16).padStart(2, "0");
}

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
