import { readdirSync, readFileSync } from "node:fs";
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { clipToTokens } from "../../../src/context/tokens/clipToTokens.js";
import { countTokens } from "../../../src/context/tokens/countTokens.js";

const plain = { disallowedSpecial: new Set<string>() };

/** This package's own sources: real code and prose, about 100 KB or more. */
function sourceText(): string {
  const root = new URL("../../../src/", import.meta.url);
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => /\.(ts|md)$/.test(f));
  return files
    .sort()
    .map((f) => readFileSync(new URL(f, root), "utf8"))
    .join("\n")
    .slice(0, 150_000);
}

describe("countTokens", () => {
  it("counts known strings as o200k_base does", () => {
    expect(countTokens("")).toBe(0);
    expect(countTokens("Hello, world!")).toBe(4);
    expect(countTokens("hello world")).toBe(2);
    expect(countTokens("The quick brown fox jumps over the lazy dog.")).toBe(10);
    expect(countTokens("你好，世界")).toBe(3);
    for (const text of ["Hello, world!", "const x = await import('./a.js');\n", "你好，世界"]) {
      expect(countTokens(text)).toBe(o200k(text));
    }
  });

  it("counts special-token text as plain text instead of throwing", () => {
    expect(() => o200k("<|endoftext|>")).toThrow();
    expect(countTokens("<|endoftext|>")).toBe(7);
    expect(countTokens("<|endoftext|>")).toBe(o200k("<|endoftext|>", plain));
  });

  it("counts long text in pieces with exactly the whole-text count", () => {
    const text = sourceText();
    expect(text.length).toBeGreaterThan(100_000);
    expect(countTokens(text)).toBe(o200k(text, plain));
    const indented = Array.from({ length: 3000 }, (_, i) => `\n      "rule_${i}",`).join("");
    expect(countTokens(indented)).toBe(o200k(indented, plain));
    const compactJson = JSON.stringify(Array.from({ length: 4000 }, (_, i) => ({ id: i, name: `item${i}` })));
    expect(countTokens(compactJson)).toBe(o200k(compactJson, plain));
    const base64 = Buffer.from(Array.from({ length: 30_000 }, (_, i) => (i * 7919) % 251)).toString("base64");
    expect(countTokens(base64)).toBe(o200k(base64, plain));
  });

  it("counts text without word breaks within a token or two per 2 KB", () => {
    for (const text of [
      "a".repeat(5000),
      " ".repeat(5000),
      "中文文本测试内容".repeat(400),
      "-".repeat(5000),
    ]) {
      const exact = o200k(text, plain);
      expect(Math.abs(countTokens(text) - exact)).toBeLessThanOrEqual(6);
    }
  });

  it("never cuts a surrogate pair", () => {
    const text = "😀".repeat(3000);
    expect(Math.abs(countTokens(text) - o200k(text, plain))).toBeLessThanOrEqual(4);
  });
});

describe("clipToTokens", () => {
  it("keeps text that fits and cuts the rest to the longest start that fits", () => {
    expect(clipToTokens("Hello, world!", 4)).toBe("Hello, world!");
    const text = sourceText().slice(0, 20_000);
    const clipped = clipToTokens(text, 500);
    expect(text.startsWith(clipped)).toBe(true);
    expect(countTokens(clipped)).toBeLessThanOrEqual(500);
    expect(countTokens(clipped)).toBeGreaterThan(400);
    expect(clipToTokens(text, 0)).toBe("");
  });
});
