import { Box, Text } from "ink";
import { Fragment } from "react";
import { CodeLine } from "./CodeLine.js";
import { type MarkdownBlock, markdownBlocks, type Span } from "./markdownBlocks.js";
import type { ColumnAlign } from "./markdownTable.js";
import { fenceLanguage, highlightCode } from "./syntaxHighlight.js";

/**
 * Markdown as the terminal shows it: headings bold, lists with bullets, code set apart and
 * coloured by its language, tables in aligned columns, inline marks.
 */
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
          <CodeBlock text={block.text} language={block.language} />
        </Box>
      );
    case "table":
      return <TableView header={block.header} align={block.align} rows={block.rows} />;
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

/** One text for the whole block, so its empty lines keep their place. */
function CodeBlock({ text, language }: { text: string; language: string | undefined }) {
  return (
    <Text>
      {highlightCode(text, fenceLanguage(language)).map((tokens, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one block, rebuilt as a whole
        <Fragment key={index}>
          {index > 0 ? "\n" : ""}
          <CodeLine tokens={tokens} />
        </Fragment>
      ))}
    </Text>
  );
}

/** A table as aligned columns, the header bold and ruled off from the rows. */
function TableView({
  header,
  align,
  rows,
}: {
  header: readonly Span[][];
  align: readonly ColumnAlign[];
  rows: readonly Span[][][];
}) {
  const widths = header.map((cell, column) =>
    Math.max(width(cell), ...rows.map((row) => width(row[column] ?? []))),
  );
  const row = (cells: readonly Span[][], bold: boolean) =>
    cells.map((cell, column) => {
      const [before, after] = padding(widths[column]! - width(cell), align[column] ?? "left");
      return (
        // biome-ignore lint/suspicious/noArrayIndexKey: the cells of one row, rebuilt as a whole
        <Fragment key={column}>
          {column > 0 ? <Text dimColor>{" │ "}</Text> : null}
          <Text bold={bold}>
            {before}
            <Spans spans={cell} />
            {after}
          </Text>
        </Fragment>
      );
    });
  return (
    <Box flexDirection="column">
      <Text>{row(header, true)}</Text>
      <Text dimColor>{widths.map((columnWidth) => "─".repeat(columnWidth)).join("─┼─")}</Text>
      {rows.map((cells, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows only ever grow at the end while an answer streams
        <Text key={index}>{row(cells, false)}</Text>
      ))}
    </Box>
  );
}

/** Characters a cell takes, as its spans show it (the marks are gone). */
function width(spans: readonly Span[]): number {
  return spans.reduce((total, span) => total + [...span.text].length, 0);
}

/** Spaces before and after a cell's text to fill `spare` characters as the column aligns. */
function padding(spare: number, align: ColumnAlign): [string, string] {
  if (align === "right") return [" ".repeat(spare), ""];
  if (align === "center") {
    const before = Math.floor(spare / 2);
    return [" ".repeat(before), " ".repeat(spare - before)];
  }
  return ["", " ".repeat(spare)];
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
