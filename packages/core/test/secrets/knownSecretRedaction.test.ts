import { fakeKeys } from "@lathe/testkit";
import { describe, expect, it } from "vitest";
import { redactDeep, secretRedactor } from "../../src/secrets/index.js";

describe("secretRedactor", () => {
  it("replaces every occurrence of each secret", () => {
    const redact = secretRedactor([fakeKeys.openaiLive, fakeKeys.google]);
    expect(redact(`a ${fakeKeys.openaiLive} b ${fakeKeys.openaiLive} c ${fakeKeys.google}`)).toBe(
      "a [redacted] b [redacted] c [redacted]",
    );
  });

  it("ignores missing, empty and short values, which would blank out ordinary words", () => {
    const redact = secretRedactor([undefined, "", "short", "1234567"]);
    expect(redact("a short 1234567 text")).toBe("a short 1234567 text");
  });

  it("removes a secret that contains another one whole", () => {
    const redact = secretRedactor(["abcdefgh", "abcdefgh-and-more"]);
    expect(redact("key=abcdefgh-and-more, other=abcdefgh")).toBe("key=[redacted], other=[redacted]");
  });

  it("treats secrets as plain text, not patterns", () => {
    const redact = secretRedactor(["a.b*c+d$1(e)"]);
    expect(redact("x a.b*c+d$1(e) y aXbbc+d$1(e)")).toBe("x [redacted] y aXbbc+d$1(e)");
  });
});

describe("redactDeep", () => {
  const redact = secretRedactor(["secret-value-1"]);

  it("redacts every string in nested objects and arrays without touching the input", () => {
    const input = {
      message: "token secret-value-1",
      count: 3,
      ok: true,
      none: null,
      nested: { list: ["secret-value-1", { deeper: "x secret-value-1 y" }], n: 1 },
    };
    const before = structuredClone(input);
    const output = redactDeep(input, redact);
    expect(output).toEqual({
      message: "token [redacted]",
      count: 3,
      ok: true,
      none: null,
      nested: { list: ["[redacted]", { deeper: "x [redacted] y" }], n: 1 },
    });
    expect(input).toEqual(before);
    expect(output.nested).not.toBe(input.nested);
  });

  it("redacts a bare string", () => {
    expect(redactDeep("secret-value-1!", redact)).toBe("[redacted]!");
  });

  it("leaves class instances whole and copes with cycles", () => {
    const when = new Date(0);
    const input: { when: Date; self?: unknown; text: string } = { when, text: "secret-value-1" };
    input.self = input;
    const output = redactDeep(input, redact);
    expect(output.when).toBe(when);
    expect(output.text).toBe("[redacted]");
    expect(output.self).toBe(output);
  });
});
