import type { MarkedToken, Token } from "marked";
import { Fragment, type ReactNode } from "react";
import { decodeHtmlEntities } from "./htmlEntities.js";
import { safeHref } from "./safeHref.js";

const externalLink = { target: "_blank", rel: "noreferrer noopener" } as const;

function renderInlineToken(token: Token, key: number): ReactNode {
  const inline = token as MarkedToken;
  switch (inline.type) {
    case "text":
      return inline.tokens ? (
        <Fragment key={key}>{renderInline(inline.tokens)}</Fragment>
      ) : (
        decodeHtmlEntities(inline.text)
      );
    case "escape":
      return inline.text;
    case "strong":
      return <strong key={key}>{renderInline(inline.tokens)}</strong>;
    case "em":
      return <em key={key}>{renderInline(inline.tokens)}</em>;
    case "del":
      return <del key={key}>{renderInline(inline.tokens)}</del>;
    case "codespan":
      return (
        <code key={key} className="md-code">
          {inline.text}
        </code>
      );
    case "br":
      return <br key={key} />;
    case "link": {
      const href = safeHref(decodeHtmlEntities(inline.href));
      const content = renderInline(inline.tokens);
      if (href === undefined) return <span key={key}>{content}</span>;
      const title = inline.title ? decodeHtmlEntities(inline.title) : undefined;
      return (
        <a key={key} href={href} title={title} {...externalLink}>
          {content}
        </a>
      );
    }
    case "image": {
      // Images load nothing from model-chosen addresses: they show as a link to the picture.
      const alt = decodeHtmlEntities(inline.text);
      const href = safeHref(decodeHtmlEntities(inline.href));
      if (href === undefined) return <span key={key}>{alt}</span>;
      return (
        <a key={key} className="md-image-link" href={href} title={inline.title ?? href} {...externalLink}>
          {alt || href}
        </a>
      );
    }
    case "checkbox":
      return (
        <input key={key} type="checkbox" className="md-task-box" checked={inline.checked} disabled readOnly />
      );
    case "html":
      // Raw HTML in model output is shown as the text it is, never interpreted.
      return inline.text;
    default:
      return token.raw;
  }
}

/** React nodes for a run of inline tokens (the content of a paragraph, heading, cell or list item). */
export function renderInline(tokens: readonly Token[]): ReactNode[] {
  return tokens.map(renderInlineToken);
}
