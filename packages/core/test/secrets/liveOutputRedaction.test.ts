import { describe, expect, it } from "vitest";
import { secretRedactor } from "../../src/secrets/index.js";
import { liveOutputRedactor } from "../../src/tools/liveOutputRedaction.js";

const secret = ["live", "-stream-", "secret-value"].join("");

function collect() {
  const chunks: [string, string][] = [];
  const live = liveOutputRedactor(secretRedactor([secret]), (stream, chunk) => chunks.push([stream, chunk]));
  return { chunks, live };
}

describe("liveOutputRedactor", () => {
  it("redacts a secret the pipe delivered in two chunks", () => {
    const { chunks, live } = collect();
    live.push("stdout", `line one\nkey=${secret.slice(0, 7)}`);
    live.push("stdout", `${secret.slice(7)} end\nnext`);
    live.flush();
    expect(chunks).toEqual([
      ["stdout", "line one\n"],
      ["stdout", "key=[redacted] end\n"],
      ["stdout", "next"],
    ]);
  });

  it("keeps each stream's unfinished line apart and passes carriage returns on", () => {
    const { chunks, live } = collect();
    live.push("stdout", "10%\r20%");
    live.push("stderr", `warn ${secret.slice(0, 5)}`);
    live.push("stdout", "\r");
    live.push("stderr", `${secret.slice(5)}\n`);
    live.flush();
    expect(chunks).toEqual([
      ["stdout", "10%\r"],
      ["stdout", "20%\r"],
      ["stderr", "warn [redacted]\n"],
    ]);
  });

  it("does not hold back a very long line without an end", () => {
    const { chunks, live } = collect();
    const long = "x".repeat(9000);
    live.push("stdout", long);
    expect(chunks).toEqual([["stdout", long]]);
  });
});
