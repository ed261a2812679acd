import { fakeKeys } from "@lathe/testkit";
import { describe, expect, it } from "vitest";
import { secretRedactor } from "../../src/secrets/index.js";

const redact = secretRedactor([]);
const pem = (kind: string) =>
  [
    `-----BEGIN ${kind}PRIVATE KEY-----`,
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU",
    `-----END ${kind}PRIVATE KEY-----`,
  ].join("\n");

describe("secretRedactor's key formats", () => {
  it.each([
    ["an OpenAI project key", fakeKeys.openaiProject],
    ["an OpenAI key", fakeKeys.openaiSecret],
    ["a GitHub token", fakeKeys.github],
    ["an AWS access key id", fakeKeys.aws],
  ])("redacts %s nobody told it about", (_kind, key) => {
    expect(redact(`before ${key} after`)).toBe("before [redacted] after");
  });

  it("redacts a PEM private key whole, and one cut short to the end", () => {
    expect(redact(`key:\n${pem("OPENSSH ")}\ndone`)).toBe("key:\n[redacted]\ndone");
    expect(redact(`key:\n${pem("")}`)).toBe("key:\n[redacted]");
    const cut = pem("RSA ").split("\n").slice(0, 2).join("\n");
    expect(redact(`key:\n${cut}`)).toBe("key:\n[redacted]");
  });

  it("leaves ordinary text, hashes and words with sk- inside alone", () => {
    const text =
      "risk-assessment-of-the-change task-0123456789abcdefgh 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b";
    expect(redact(text)).toBe(text);
  });

  it("removes a known value before the formats, so no part of it is left", () => {
    const known = `${fakeKeys.google}-and-more`;
    expect(secretRedactor([known])(`a ${known} b`)).toBe("a [redacted] b");
  });
});
