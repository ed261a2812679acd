import { describe, expect, it } from "vitest";
import { highlightCode, languageOf } from "../src/render/highlighter.js";
import { decodeHtmlEntities } from "../src/render/htmlEntities.js";
import { safeHref } from "../src/render/safeHref.js";

describe("decodeHtmlEntities", () => {
  it("resolves named, decimal and hex references and leaves unknown names alone", () => {
    expect(decodeHtmlEntities("a &amp; b &lt;tag&gt; &copy; &#39;x&#39; &#x2014; &bogus; & plain")).toBe(
      "a & b <tag> © 'x' — &bogus; & plain",
    );
  });

  it("replaces invalid code points and does not look names up on the prototype", () => {
    expect(decodeHtmlEntities("&#0; &#xD800; &constructor;")).toBe("\ufffd \ufffd &constructor;");
  });
});

describe("safeHref", () => {
  it("allows http, https and mailto only", () => {
    expect(safeHref(" https://example.com/a?b=1 ")).toBe("https://example.com/a?b=1");
    expect(safeHref("HTTP://EXAMPLE.COM")).toBe("HTTP://EXAMPLE.COM");
    expect(safeHref("mailto:someone@example.com")).toBe("mailto:someone@example.com");
    for (const href of [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "data:text/html,x",
      "file:///etc/passwd",
      "/relative",
      "//host/x",
      "java\tscript:x",
    ]) {
      expect(safeHref(href)).toBeUndefined();
    }
  });
});

describe("highlighter", () => {
  it("knows registered languages by name, alias and fence info string", () => {
    expect(
      ["ts", "TypeScript", "tsx", "sh", "shell", "py title=x.py", "html", "yml", "jsonc"].map(languageOf),
    ).toEqual(["ts", "typescript", "typescript", "sh", "shell", "py", "html", "yml", "json"]);
    expect([undefined, "", "mermaid"].map(languageOf)).toEqual([undefined, undefined, undefined]);
  });

  it("escapes the code it highlights", () => {
    const html = highlightCode('const s = "<img src=x onerror=alert(1)>";', "typescript");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain('<span class="hljs-keyword">const</span>');
  });
});
