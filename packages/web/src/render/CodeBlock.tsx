import { memo, useEffect, useMemo, useState } from "react";
import { highlightCode, languageOf } from "./highlighter.js";

/** Beyond this size a block still streaming is shown plain: highlighting it on every delta would drop frames. */
const streamingHighlightLimit = 20_000;
/** A streaming block this short is highlighted whole on every delta: that takes a millisecond or two. */
const smallBlock = 2048;

/**
 * How much of a streaming block to highlight: whole lines up to a bound that grows by a quarter
 * at a time. The highlighted part then changes only a few times as the block grows (about a
 * dozen times on the way to 20k characters) instead of on every delta; the lines past it show
 * plain until the next step.
 */
function streamingHighlightLength(code: string): number {
  if (code.length <= smallBlock) return code.length;
  let bound = smallBlock;
  while (Math.floor(bound * 1.25) <= code.length) bound = Math.floor(bound * 1.25);
  return code.lastIndexOf("\n", bound - 1) + 1;
}

export interface CodeBlockProps {
  code: string;
  /** The fence's info string or a language name; unknown languages show as plain text. */
  language?: string;
  /** The block is still being written. */
  streaming?: boolean;
}

type CopyState = "idle" | "copied" | "failed";

function CopyButton({ text }: { text: string }) {
  const [state, setState] = useState<CopyState>("idle");
  useEffect(() => {
    if (state === "idle") return;
    const reset = setTimeout(() => setState("idle"), 1500);
    return () => clearTimeout(reset);
  }, [state]);
  const copy = () => {
    // The clipboard API exists only in secure contexts (https, localhost).
    const written = navigator.clipboard?.writeText(text) ?? Promise.reject(new Error("no clipboard"));
    written.then(
      () => setState("copied"),
      () => setState("failed"),
    );
  };
  return (
    <button type="button" className="code-block-copy" onClick={copy} data-testid="code-block-copy">
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}
    </button>
  );
}

/** A block of code with syntax highlighting and a copy button. */
export const CodeBlock = memo(function CodeBlock({ code, language, streaming = false }: CodeBlockProps) {
  const name = languageOf(language);
  const highlightAs = streaming && code.length > streamingHighlightLimit ? undefined : name;
  const head =
    highlightAs === undefined ? "" : streaming ? code.slice(0, streamingHighlightLength(code)) : code;
  const html = useMemo(
    () => (highlightAs === undefined ? undefined : highlightCode(head, highlightAs)),
    [head, highlightAs],
  );
  const label = name ?? language?.trim().split(/\s+/, 1)[0] ?? "";
  return (
    <div className="code-block" data-testid="code-block" data-language={name}>
      <div className="code-block-bar">
        <span className="code-block-language">{label}</span>
        <CopyButton text={code} />
      </div>
      <pre className="code-block-pre">
        {html === undefined ? (
          <code>{code}</code>
        ) : (
          <code className={`hljs language-${highlightAs}`}>
            {/* biome-ignore lint/security/noDangerouslySetInnerHtml: highlight.js escapes the code it is given and only adds its own <span class="hljs-…"> markup, so this HTML cannot carry markup from the code itself. */}
            <span dangerouslySetInnerHTML={{ __html: html }} />
            {code.slice(head.length)}
          </code>
        )}
      </pre>
    </div>
  );
});
