// biome-ignore-all lint/suspicious/noArrayIndexKey: tokens have no identity but their position, and a block's elements are rebuilt from its token

import type { MarkedToken, Token, Tokens } from "marked";
import { createElement, Fragment, memo, type ReactNode } from "react";
import { CodeBlock } from "./CodeBlock.js";
import { renderInline } from "./MarkdownInline.js";

/** Tokens that take no room: blank lines between blocks and link reference definitions. */
export function isInvisibleBlock(token: Token): boolean {
  return token.type === "space" || token.type === "def";
}

function renderList(list: Tokens.List, key: number, streaming: boolean): ReactNode {
  const items = list.items.map((item, index) => (
    <li key={index} className={item.task ? "md-task" : undefined}>
      {renderBlocks(item.tokens, streaming)}
    </li>
  ));
  if (!list.ordered) return <ul key={key}>{items}</ul>;
  const start = list.start === "" || list.start === 1 ? undefined : list.start;
  return (
    <ol key={key} start={start}>
      {items}
    </ol>
  );
}

function renderTable(table: Tokens.Table, key: number): ReactNode {
  const align = (cell: Tokens.TableCell) => (cell.align === null ? undefined : { textAlign: cell.align });
  return (
    <div key={key} className="md-table-wrap">
      <table className="md-table">
        <thead>
          <tr>
            {table.header.map((cell, index) => (
              <th key={index} style={align(cell)}>
                {renderInline(cell.tokens)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, index) => (
                <td key={index} style={align(cell)}>
                  {renderInline(cell.tokens)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function renderBlock(token: Token, key: number, streaming: boolean): ReactNode {
  const block = token as MarkedToken;
  switch (block.type) {
    case "space":
    case "def":
      return null;
    case "heading":
      return createElement(`h${block.depth}`, { key }, renderInline(block.tokens));
    case "paragraph":
      return <p key={key}>{renderInline(block.tokens)}</p>;
    case "text":
      // A tight list item's content: inline text with no paragraph around it.
      return <Fragment key={key}>{block.tokens ? renderInline(block.tokens) : block.text}</Fragment>;
    case "list":
      return renderList(block, key, streaming);
    case "code":
      return <CodeBlock key={key} code={block.text} language={block.lang} streaming={streaming} />;
    case "blockquote":
      return <blockquote key={key}>{renderBlocks(block.tokens, streaming)}</blockquote>;
    case "table":
      return renderTable(block, key);
    case "hr":
      return <hr key={key} />;
    case "checkbox":
      // A tight task item's box sits among the item's blocks; a loose item's inside its paragraph.
      return (
        <input key={key} type="checkbox" className="md-task-box" checked={block.checked} disabled readOnly />
      );
    case "html":
      // Raw HTML in model output is shown as the text it is, never interpreted.
      return (
        <p key={key} className="md-raw-html">
          {block.text}
        </p>
      );
    default:
      return (
        <p key={key} className="md-raw-html">
          {token.raw}
        </p>
      );
  }
}

function renderBlocks(tokens: readonly Token[], streaming: boolean): ReactNode[] {
  return tokens.map((token, index) => renderBlock(token, index, streaming));
}

export interface MarkdownBlockProps {
  token: Token;
  /** The block may still grow: a long code block is then left unhighlighted. */
  streaming: boolean;
}

/**
 * One top-level block. Memoized on the token's identity: while a message streams, the blocks
 * before the last keep their tokens, so a delta re-renders only the block it extends.
 */
export const MarkdownBlock = memo(function MarkdownBlock({ token, streaming }: MarkdownBlockProps) {
  return renderBlock(token, 0, streaming);
});
