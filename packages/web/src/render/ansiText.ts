import Anser from "anser";

export interface AnsiSpan {
  text: string;
  /** `ansi-red-fg`, `ansi-bright-blue-bg`, `ansi-bold`, ... (defined in render.css). */
  className?: string;
  /** Colours outside the 16 named ones (256-colour palette, 24-bit), as CSS colours. */
  color?: string;
  background?: string;
}

export interface AnsiDisplay {
  /** Characters cut from the start to stay within the limit. */
  hiddenChars: number;
  spans: AnsiSpan[];
}

// Terminal escape sequences are made of control characters; matching them is the point here.
/** OSC sequences (window titles, hyperlinks), which anser leaves in the text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: see above
const oscSequence = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
/** An escape sequence cut off by the end of output still arriving. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: see above
const unfinishedEscape = /\x1b(?:\[[0-9;?]*|\][^\x07\x1b]*)?$/;
/** Colour and decoration codes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: see above
const sgrSequence = /\x1b\[[0-9;]*m/g;

/**
 * Each line as a terminal would leave it after carriage returns (progress bars, spinners): the
 * text after its last `\r` that is followed by something. Colour codes from the overwritten
 * parts are kept, since the terminal's colour state carries over.
 */
export function collapseCarriageReturns(text: string): string {
  if (!text.includes("\r")) return text;
  return text
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => {
      if (!line.includes("\r")) return line;
      const parts = line.split("\r");
      let last = parts.length - 1;
      while (last > 0 && parts[last] === "") last--;
      const carried = parts
        .slice(0, last)
        .flatMap((part) => part.match(sgrSequence) ?? [])
        .join("");
      return carried + parts[last];
    })
    .join("\n");
}

/** The tail of `text` within `maxChars`, starting at a line start so no escape sequence is cut in two. */
function tail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(text.length - maxChars);
  const lineStart = cut.indexOf("\n");
  return lineStart === -1 ? cut : cut.slice(lineStart + 1);
}

const decorationClasses: Readonly<Record<string, string>> = {
  bold: "ansi-bold",
  dim: "ansi-dim",
  italic: "ansi-italic",
  underline: "ansi-underline",
  strikethrough: "ansi-strikethrough",
  hidden: "ansi-hidden",
  reverse: "ansi-reverse",
};

/** The RGB of an xterm 256-colour palette entry from 16 up: a 6×6×6 cube, then 24 greys. */
export function paletteColor(index: number): string {
  if (index >= 232) {
    const grey = 8 + (index - 232) * 10;
    return `rgb(${grey}, ${grey}, ${grey})`;
  }
  const cube = index - 16;
  const level = (step: number) => (step === 0 ? 0 : 55 + step * 40);
  return `rgb(${level(Math.floor(cube / 36))}, ${level(Math.floor(cube / 6) % 6)}, ${level(cube % 6)})`;
}

/** A colour anser reports as a class; the named sixteen stay classes, the rest become CSS colours. */
function colourOf(
  anserClass: string | null,
  truecolor: string,
  side: "fg" | "bg",
): { className?: string; css?: string } {
  if (!anserClass) return {};
  if (anserClass === "ansi-truecolor") return { css: `rgb(${truecolor})` };
  const palette = /^ansi-palette-(\d+)$/.exec(anserClass);
  if (palette) return { css: paletteColor(Number(palette[1])) };
  return { className: `${anserClass}-${side}` };
}

/**
 * Terminal output as styled spans: the last `maxChars` characters, carriage-return progress
 * collapsed, SGR colours and decorations kept, every other escape sequence dropped.
 */
export function toAnsiDisplay(text: string, maxChars: number): AnsiDisplay {
  const shown = tail(text, maxChars);
  const cleaned = collapseCarriageReturns(shown.replace(unfinishedEscape, "").replace(oscSequence, ""));
  const spans = Anser.ansiToJson(cleaned, { use_classes: true, remove_empty: true }).map(
    (entry): AnsiSpan => {
      // anser's types promise strings, but uncoloured entries carry null.
      const fg = colourOf(entry.fg as string | null, entry.fg_truecolor, "fg");
      const bg = colourOf(entry.bg as string | null, entry.bg_truecolor, "bg");
      const classes = [
        fg.className,
        bg.className,
        ...entry.decorations.map((name) => decorationClasses[name]),
      ];
      const className = classes.filter((name) => name !== undefined).join(" ");
      return { text: entry.content, className: className || undefined, color: fg.css, background: bg.css };
    },
  );
  return { hiddenChars: text.length - shown.length, spans };
}
