import { describe, expect, it } from "vitest";
import { collapseCarriageReturns, paletteColor, toAnsiDisplay } from "../src/render/ansiText.js";

describe("collapseCarriageReturns", () => {
  it("keeps what each progress line ends showing", () => {
    expect(collapseCarriageReturns("start\n 10%\r 50%\r100%\ndone\n")).toBe("start\n100%\ndone\n");
  });

  it("ignores a trailing carriage return and treats CRLF as a line end", () => {
    expect(collapseCarriageReturns("a\r\nloading\r\nb 1/3\rb 3/3\r\n")).toBe("a\nloading\nb 3/3\n");
    expect(collapseCarriageReturns("step 1\rstep 2\r")).toBe("step 2");
  });

  it("keeps colour codes from the overwritten text", () => {
    expect(collapseCarriageReturns("\x1b[32mworking\rfinished\x1b[0m")).toBe("\x1b[32mfinished\x1b[0m");
  });
});

describe("toAnsiDisplay", () => {
  it("turns SGR codes into classes and drops other escapes", () => {
    const display = toAnsiDisplay(
      "plain \x1b[31mred\x1b[0m \x1b[1;92mbold\x1b[0m\x1b[2K \x1b]8;;https://x\x07link\x1b]8;;\x07 \x1b[44;3mblue\x1b[0m",
      1000,
    );
    expect(display).toEqual({
      hiddenChars: 0,
      spans: [
        { text: "plain " },
        { text: "red", className: "ansi-red-fg" },
        { text: " " },
        { text: "bold", className: "ansi-bright-green-fg ansi-bold" },
        { text: " link " },
        { text: "blue", className: "ansi-blue-bg ansi-italic" },
      ],
    });
  });

  it("turns palette and 24-bit colours into CSS colours", () => {
    expect(toAnsiDisplay("\x1b[38;5;208morange\x1b[0m\x1b[48;2;10;20;30mdeep\x1b[0m", 1000).spans).toEqual([
      { text: "orange", color: "rgb(255, 135, 0)" },
      { text: "deep", background: "rgb(10, 20, 30)" },
    ]);
    expect(paletteColor(16)).toBe("rgb(0, 0, 0)");
    expect(paletteColor(231)).toBe("rgb(255, 255, 255)");
    expect(paletteColor(244)).toBe("rgb(128, 128, 128)");
  });

  it("keeps markup characters as text", () => {
    expect(toAnsiDisplay("<b>&amp;</b>", 1000).spans).toEqual([{ text: "<b>&amp;</b>" }]);
  });

  it("shows only the tail, from a line start, and says how much is hidden", () => {
    const text = `${"x".repeat(50)}\n\x1b[31mfirst\x1b[0m\nsecond\nthird\n`;
    const display = toAnsiDisplay(text, 20);
    expect(display).toEqual({
      hiddenChars: text.length - "second\nthird\n".length,
      spans: [{ text: "second\nthird\n" }],
    });
  });

  it("cuts a single long line mid-line when it has no line break", () => {
    expect(toAnsiDisplay("abcdefghij", 4)).toEqual({ hiddenChars: 6, spans: [{ text: "ghij" }] });
  });

  it("drops an escape sequence cut off by the end of output still arriving", () => {
    expect(toAnsiDisplay("compiling\x1b[3", 1000).spans).toEqual([{ text: "compiling" }]);
  });
});
