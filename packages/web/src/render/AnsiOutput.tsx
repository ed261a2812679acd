import { useMemo } from "react";
import { toAnsiDisplay } from "./ansiText.js";
import { useFollowingScroll } from "./followingScroll.js";

export interface AnsiOutputProps {
  text: string;
  /** Only the last this many characters are shown. */
  maxChars?: number;
}

/** Terminal output with its ANSI colours, showing the end of long output. */
export function AnsiOutput({ text, maxChars = 100_000 }: AnsiOutputProps) {
  const display = useMemo(() => toAnsiDisplay(text, maxChars), [text, maxChars]);
  const { ref: box, onScroll } = useFollowingScroll<HTMLPreElement>();
  return (
    <pre className="ansi-output" data-testid="ansi-output" ref={box} onScroll={onScroll}>
      {display.hiddenChars > 0 && (
        <span className="ansi-hidden-note">
          … {display.hiddenChars.toLocaleString("en-US")} earlier characters hidden{"\n"}
        </span>
      )}
      {display.spans.map((span, index) =>
        span.className || span.color || span.background ? (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: spans are positions in output that only grows at the end
            key={index}
            className={span.className}
            style={
              span.color || span.background ? { color: span.color, background: span.background } : undefined
            }
          >
            {span.text}
          </span>
        ) : (
          span.text
        ),
      )}
    </pre>
  );
}
