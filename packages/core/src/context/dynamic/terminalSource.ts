import { keepWithinTokens, tagged } from "./contextText.js";
import type { SourceContext } from "./sourceContext.js";

/**
 * The newest terminal output (seed 001 D1 priority 4): the editor's terminal when it sends one,
 * since that is what the user is looking at, else the caller's (the newest background command).
 */
export function addTerminal(context: SourceContext, fallback: string | undefined): void {
  const output = (context.editor?.terminalOutput ?? fallback ?? "").trimEnd();
  if (output.trim() === "") return;
  const tail = lastChars(output, context.settings.terminalTailChars);
  const earlier = "[… earlier output not shown]\n";
  const render = (text: string, cut: boolean) => tagged("terminal", {}, `${cut ? earlier : ""}${text}`);
  let text = render(tail, tail.length < output.length);
  if (!context.assembly.fits(text)) {
    const room = context.assembly.remaining - context.countTokens(render("", true));
    if (room <= 0) return;
    text = render(keepWithinTokens(tail, room, context.countTokens, "tail").text, true);
  }
  context.assembly.add({ source: "terminal", text, items: 1, files: [] });
}

/** The last `count` characters, one fewer rather than half of a surrogate pair. */
export function lastChars(text: string, count: number): string {
  if (text.length <= count) return text;
  const start = text.length - count;
  const code = text.charCodeAt(start);
  return text.slice(code >= 0xdc00 && code <= 0xdfff ? start + 1 : start);
}
