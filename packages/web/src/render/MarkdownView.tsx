import { useDeferredValue, useMemo, useRef } from "react";
import { isInvisibleBlock, MarkdownBlock } from "./MarkdownBlock.js";
import { type MarkdownBlocks, splitMarkdownBlocks } from "./markdownBlocks.js";

export interface MarkdownViewProps {
  text: string;
  /** The text is still growing: only its last block is re-lexed and re-rendered per change. */
  streaming?: boolean;
}

/**
 * Markdown rendered from marked's tokens straight to React elements, so raw HTML in the text
 * shows as text and nothing is ever parsed as markup.
 */
export function MarkdownView({ text, streaming = false }: MarkdownViewProps) {
  // Under a fast stream React may skip intermediate texts and render the newest when it has time.
  const shownText = useDeferredValue(text);
  const previous = useRef<MarkdownBlocks | undefined>(undefined);
  const blocks = useMemo(() => {
    // The previous result only serves as a cache: any earlier split of any text is safe to pass.
    const next = splitMarkdownBlocks(shownText, previous.current);
    previous.current = next;
    return next;
  }, [shownText]);
  return (
    <div className="md" data-testid="markdown">
      {blocks.tokens.map((token, index) =>
        isInvisibleBlock(token) ? null : (
          // biome-ignore lint/suspicious/noArrayIndexKey: a block's position is its identity; its token says whether it changed
          <MarkdownBlock key={index} token={token} streaming={streaming && index >= blocks.stableCount} />
        ),
      )}
    </div>
  );
}
