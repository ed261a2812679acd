import { Box, Text } from "ink";
import { type MarkdownBlock, markdownBlocks, type Span } from "./markdownBlocks.js";

/** Markdown as the terminal shows it: headings bold, lists with bullets, code set apart, inline marks. */
export function MarkdownText({ text }: { text: string }) {
  return (
    <Box flexDirection="column">
      {markdownBlocks(text).map((block, index) => (
        // Blocks only ever grow at the end while an answer streams, so their place is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <BlockView key={index} block={block} />
      ))}
    </Box>
  );
}

function BlockView({ block }: { block: MarkdownBlock }) {
  switch (block.kind) {
    case "heading":
      return (
        <Text bold color="cyan">
          <Spans spans={block.spans} />
        </Text>
      );
    case "item":
      return (
        <Text>
          {"  ".repeat(block.depth)}
          {block.marker} <Spans spans={block.spans} />
        </Text>
      );
    case "code":
      return (
        <Box marginLeft={2}>
          <Text color="yellow">{block.text}</Text>
        </Box>
      );
    case "paragraph":
      return (
        <Text>
          <Spans spans={block.spans} />
        </Text>
      );
    case "blank":
      return <Text> </Text>;
  }
}

function Spans({ spans }: { spans: readonly Span[] }) {
  return (
    <>
      {spans.map((span, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the spans of one line, rebuilt as a whole
        <Text key={index} bold={span.bold} italic={span.italic} color={span.code ? "yellow" : undefined}>
          {span.text}
        </Text>
      ))}
    </>
  );
}
