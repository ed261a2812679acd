import { describe, expect, it } from "vitest";
import { expectEdit, failed, succeeded } from "./editOutcome.js";

const lines = (...text: string[]) => `${text.join("\n")}\n`;

describe("strategy 1: exact", () => {
  it("replaces the one place old_string occurs", () => {
    const outcome = succeeded(lines("a", "foo(1)", "b"), { oldString: "foo(1)", newString: "foo(2)" });
    expect(outcome).toEqual({
      ok: true,
      content: lines("a", "foo(2)", "b"),
      strategy: "exact",
      matches: [{ startLine: 2, endLine: 2 }],
      removedLines: 1,
      addedLines: 1,
    });
  });

  it("refuses old_string that occurs twice, naming both lines", () => {
    const error = failed(lines("x = 1", "y = 2", "x = 1"), { oldString: "x = 1", newString: "x = 3" });
    expect(error.code).toBe("E_MULTIPLE_MATCHES");
    expect(error.message).toContain("occurs 2 times in the file, at lines 1, 3.");
  });

  it("wins over a looser strategy that would match elsewhere", () => {
    const file = lines("function a() {", "  return 1;", "}", "function b() {", "  return 1;  ", "}");
    expectEdit(
      file,
      { oldString: "  return 1;\n}", newString: "  return 2;\n}" },
      {
        content: lines("function a() {", "  return 2;", "}", "function b() {", "  return 1;  ", "}"),
        strategy: "exact",
      },
    );
  });
});

describe("strategy 2: line-trimmed", () => {
  it("ignores whitespace at the ends of lines", () => {
    expectEdit(
      lines("if (x) {", "    call();   ", "}"),
      { oldString: "if (x) {\n    call();\n}", newString: "if (x) {\n    other();\n}" },
      { content: lines("if (x) {", "    other();", "}"), strategy: "line-trimmed" },
    );
  });

  it("refuses when two blocks fit", () => {
    const error = failed(lines("go(); ", "stop();", "go();  ", "stop();"), {
      oldString: "go();\nstop();",
      newString: "run();",
    });
    expect(error.code).toBe("E_MULTIPLE_MATCHES");
    expect(error.message).toContain("matched approximately (line-trimmed) it fits 2 places, at lines 1, 3.");
  });

  it("wins over whitespace-normalized", () => {
    const file = lines("let a = 1;  ", "let b = 2;", "", "let  a = 1;", "let b  = 2;");
    expectEdit(
      file,
      { oldString: "let a = 1;\nlet b = 2;", newString: "let c = 3;" },
      { content: lines("let c = 3;", "", "let  a = 1;", "let b  = 2;"), strategy: "line-trimmed" },
    );
  });
});

describe("strategy 3: whitespace-normalized", () => {
  it("treats runs of whitespace inside lines as one space", () => {
    expectEdit(
      lines("const total  =  a +  b;", "return total;"),
      {
        oldString: "const total = a + b;\nreturn total;",
        newString: "const total = a + b + c;\nreturn total;",
      },
      { content: lines("const total = a + b + c;", "return total;"), strategy: "whitespace-normalized" },
    );
  });

  it("refuses when two blocks fit", () => {
    const error = failed(lines("a  =  1", "b", "a =   1", "b"), { oldString: "a = 1\nb", newString: "c" });
    expect(error.code).toBe("E_MULTIPLE_MATCHES");
    expect(error.message).toContain("(whitespace-normalized) it fits 2 places, at lines 1, 3.");
  });

  it("wins over indentation-flexible", () => {
    const file = lines("call(a,  b);", "done();", "", "  call(a, b);", "  done();");
    expectEdit(
      file,
      { oldString: "call(a, b);\ndone();", newString: "call(c);\ndone();" },
      {
        content: lines("call(c);", "done();", "", "  call(a, b);", "  done();"),
        strategy: "whitespace-normalized",
      },
    );
  });
});

describe("strategy 4: indentation-flexible", () => {
  const file = lines("class A {", "    method() {", "        go();", "    }", "}");

  it("re-indents new_string by the offset the file's block has", () => {
    expectEdit(
      file,
      {
        oldString: "  method() {\n      go();\n  }",
        newString: "  method() {\n      go();\n      stop();\n  }",
      },
      {
        content: lines("class A {", "    method() {", "        go();", "        stop();", "    }", "}"),
        strategy: "indentation-flexible",
      },
    );
  });

  it("keeps the first line's indentation when old_string was copied from mid-line", () => {
    expectEdit(
      file,
      { oldString: "method() {\n    go();\n}", newString: "method() {\n    go(1);\n}" },
      {
        content: lines("class A {", "    method() {", "        go(1);", "    }", "}"),
        strategy: "indentation-flexible",
      },
    );
  });

  it("writes tabs where the file indents with tabs", () => {
    expectEdit(
      lines("func main() {", "\tif x {", "\t\ty()", "\t}", "}"),
      {
        oldString: "    if x {\n        y()\n    }",
        newString: "    if x {\n        y()\n        z()\n    }",
      },
      {
        content: lines("func main() {", "\tif x {", "\t\ty()", "\t\tz()", "\t}", "}"),
        strategy: "indentation-flexible",
      },
    );
  });

  it("refuses when the block is in the file twice", () => {
    const twice = lines(
      "    if (a) {",
      "        b();",
      "    }",
      "        if (a) {",
      "            b();",
      "        }",
    );
    const error = failed(twice, { oldString: "if (a) {\n    b();\n}", newString: "b();" });
    expect(error.code).toBe("E_MULTIPLE_MATCHES");
    expect(error.message).toContain("(indentation-flexible) it fits 2 places, at lines 1, 4.");
  });

  it("re-indents new_string when the file's indentation levels are another width", () => {
    expectEdit(
      lines("def scale(value):", '    """Scale a value."""', "    return value * 2"),
      {
        oldString: 'def scale(value):\n  """Scale a value."""\n  return value * 2',
        newString: "def scale(value, factor):\n  if factor:\n    return value * factor\n  return value",
      },
      {
        content: lines(
          "def scale(value, factor):",
          "    if factor:",
          "        return value * factor",
          "    return value",
        ),
        strategy: "indentation-flexible",
      },
    );
  });

  it("re-indents 4-space levels onto a 2-space file nested a level deeper", () => {
    expectEdit(
      lines("class A {", "  run() {", "    if (x) {", "      go();", "    }", "  }", "}"),
      {
        oldString: "run() {\n    if (x) {\n        go();\n    }\n}",
        newString:
          "run() {\n    if (x) {\n        go();\n        if (y) {\n            stop();\n        }\n    }\n}",
      },
      {
        content: lines(
          "class A {",
          "  run() {",
          "    if (x) {",
          "      go();",
          "      if (y) {",
          "        stop();",
          "      }",
          "    }",
          "  }",
          "}",
        ),
        strategy: "indentation-flexible",
      },
    );
  });

  it("applies a unique block whose lines each drifted by their own amount, re-indenting line by line", () => {
    // 2 → 4 would need 6 → 12, an offset would need 2 → 2: no single rule, but every line maps.
    expectEdit(
      lines("if x:", "    y()", "        z()", "    w()"),
      {
        oldString: "if x:\n  y()\n      z()\n  w()",
        newString: "if x:\n  y(1)\n      z()\n        deeper()\n  w()\n  v()",
      },
      {
        content: lines("if x:", "    y(1)", "        z()", "          deeper()", "    w()", "    v()"),
        strategy: "indentation-flexible",
      },
    );
  });

  it.each([
    {
      name: "a line added at the start follows the line after it",
      file: lines("{", "   a;", "        b;", "}"),
      oldString: "{\n  a;\n    b;\n}",
      newString: "// head\n{\n  a;\n    b;\n}",
      content: lines("// head", "{", "   a;", "        b;", "}"),
    },
    {
      name: "rewritten lines follow the lines they replace, in order",
      file: lines("f(", "     one,", "  two,", ")"),
      oldString: "f(\n  one,\n    two,\n)",
      newString: "f(\n  ONE,\n    TWO,\n)",
      content: lines("f(", "     ONE,", "  TWO,", ")"),
    },
    {
      name: "a new_string already at the file's indentation is written as it is",
      file: lines("if x:", "    y()", "z()"),
      oldString: "if x:\n      y()\n  z()",
      newString: "if x:\n    w()\nz()",
      content: lines("if x:", "    w()", "z()"),
    },
    {
      name: "tabs in the file stay tabs",
      file: lines("func f() {", "\tif a {", "\t\t\tb()", "\t}", "}"),
      oldString: "func f() {\n  if a {\n    b()\n  }\n}",
      newString: "func f() {\n  if a {\n    b()\n    c()\n  }\n}",
      content: lines("func f() {", "\tif a {", "\t\t\tb()", "\t\t\tc()", "\t}", "}"),
    },
  ])("line by line: $name", ({ file, oldString, newString, content }) => {
    expectEdit(file, { oldString, newString }, { content, strategy: "indentation-flexible" });
  });

  it("refuses an irregular block whose lines differ by more than indentation", () => {
    const error = failed(lines("if x:", "    y(a,  b)", "        z()", "    w()"), {
      oldString: "if x:\n  y(a, b)\n      z()\n  w()",
      newString: "if x:\n  y(b, a)\n      z()\n  w()",
    });
    expect(error.code).toBe("E_NOT_FOUND");
    expect(error.message).toContain("old_string's indentation does not map onto the file's by one rule");
  });

  it("refuses two blocks that each map line by line, rather than pick one", () => {
    const twice = lines("if x:", "    y()", "        z()", "", "if x:", "   y()", "         z()");
    const error = failed(twice, { oldString: "if x:\n  y()\n      z()", newString: "if x:\n  q()" });
    expect(error.code).toBe("E_MULTIPLE_MATCHES");
    expect(error.message).toContain("(indentation-flexible) it fits 2 places, at lines 1, 5.");
  });

  it("refuses a scaled block when another block differs irregularly, rather than pick one", () => {
    // Lines 1-3 are old_string with 2-space levels made 4; lines 5-7 fit no rule.
    const twice = lines("if (a) {", "    b();", "}", "", "if (a) {", "   b();", "      }");
    const ambiguous = failed(twice, { oldString: "  if (a) {\n    b();\n  }", newString: "b();" });
    expect(ambiguous.code).toBe("E_MULTIPLE_MATCHES");
    expect(ambiguous.message).toContain("(indentation-flexible) it fits 2 places, at lines 1, 5.");
  });

  it("refuses a shifted block when another block fits by scaled levels, rather than pick one", () => {
    // Lines 4-6 are old_string with 2-space levels made 4 and moved a level deeper.
    const both = lines("  a()", "    b()", "  c()", "    a()", "        b()", "    c()");
    const error = failed(both, { oldString: "a()\n  b()\nc()", newString: "x()" });
    expect(error.code).toBe("E_MULTIPLE_MATCHES");
    expect(error.message).toContain("at lines 1, 4.");
  });

  it("loses to line-trimmed, which matches at old_string's own indentation", () => {
    const both = lines("  go();  ", "  stop();", "", "      go();", "      stop();");
    expectEdit(
      both,
      { oldString: "  go();\n  stop();", newString: "  run();" },
      { content: lines("  run();", "", "      go();", "      stop();"), strategy: "line-trimmed" },
    );
  });
});

describe("strategy 5: escape-normalized", () => {
  it("unescapes an over-escaped old_string and new_string", () => {
    expectEdit(
      lines('console.log("a");', 'console.log("b");'),
      { oldString: 'console.log(\\"a\\");\\nconsole.log(\\"b\\");', newString: 'console.log(\\"c\\");' },
      { content: lines('console.log("c");'), strategy: "escape-normalized" },
    );
  });

  it("refuses when the unescaped text occurs twice", () => {
    const error = failed(lines("say('hi');", "say('hi');"), { oldString: "say(\\'hi\\');", newString: "x" });
    expect(error.code).toBe("E_MULTIPLE_MATCHES");
    expect(error.message).toContain("(escape-normalized) it fits 2 places, at lines 1, 2.");
  });

  it("loses to exact when the escaped text is in the file as it is", () => {
    const file = 's = "one\\ntwo";\none\ntwo\n';
    expectEdit(
      file,
      { oldString: "one\\ntwo", newString: "ONE" },
      { content: 's = "ONE";\none\ntwo\n', strategy: "exact" },
    );
  });
});

describe("strategy 6: unicode-normalized", () => {
  it("matches smart quotes, dashes and an ellipsis written as ASCII", () => {
    expectEdit(
      lines("const msg = “Hello — world…”;", "next();"),
      { oldString: 'const msg = "Hello - world...";', newString: 'const msg = "Hi";' },
      { content: lines('const msg = "Hi";', "next();"), strategy: "unicode-normalized" },
    );
  });

  it("matches the other way round, and only the span of a partial line", () => {
    expectEdit(
      lines("log('done'); next();"),
      { oldString: "log(‘done’);", newString: "log('ok');" },
      { content: lines("log('ok'); next();"), strategy: "unicode-normalized" },
    );
  });

  it("matches composed and decomposed accents", () => {
    expectEdit(
      lines("café = 1"),
      { oldString: "cafe\u0301 = 1", newString: "cafe = 2" },
      { content: lines("cafe = 2"), strategy: "unicode-normalized" },
    );
  });

  it("refuses when the normalised text occurs twice", () => {
    const error = failed(lines("“x”", "“x”"), { oldString: '"x"', newString: "y" });
    expect(error.code).toBe("E_MULTIPLE_MATCHES");
    expect(error.message).toContain("(unicode-normalized) it fits 2 places, at lines 1, 2.");
  });

  it("loses to exact", () => {
    expectEdit(
      lines("a = “x”", 'b = "x"'),
      { oldString: '"x"', newString: '"y"' },
      { content: lines("a = “x”", 'b = "y"'), strategy: "exact" },
    );
  });
});

describe("strategy 7: trimmed-boundary", () => {
  it("drops blank lines old_string has at its ends and new_string's matching ones", () => {
    expectEdit(
      lines("a();", "b();", "c();"),
      { oldString: "\n\nb();\n\n", newString: "\n\nB();\n\n" },
      { content: lines("a();", "B();", "c();"), strategy: "trimmed-boundary" },
    );
  });

  it("refuses when the trimmed text fits two places", () => {
    const error = failed(lines("x", "", "y", "x"), { oldString: "\nx\n\n", newString: "z\n" });
    expect(error.code).toBe("E_MULTIPLE_MATCHES");
    expect(error.message).toContain("(trimmed-boundary) it fits 2 places, at lines 1, 4.");
  });

  it("loses to exact when the blank lines are in the file", () => {
    expectEdit(
      lines("b();", "", "", "b();"),
      { oldString: "\n\nb();\n", newString: "\n\nB();\n" },
      { content: lines("b();", "", "", "B();"), strategy: "exact" },
    );
  });
});

describe("strategy 8: block-anchor", () => {
  const file = lines(
    "function total(items) {",
    "  let sum = 0;",
    "  for (const item of items) sum += item.price;",
    "  return sum;",
    "}",
    "",
    "function count(items) {",
    "  return items.length;",
    "}",
  );
  const misremembered = [
    "function total(items) {",
    "  let sum = 0;",
    "  for (const item of items) sum += item.cost;",
    "  return sum;",
    "}",
  ].join("\n");

  it("finds a block by its first and last lines when the middle is mostly alike", () => {
    expectEdit(
      file,
      {
        oldString: misremembered,
        newString: "function total(items) {\n  return items.reduce((sum, item) => sum + item.price, 0);\n}",
      },
      {
        content: lines(
          "function total(items) {",
          "  return items.reduce((sum, item) => sum + item.price, 0);",
          "}",
          "",
          "function count(items) {",
          "  return items.length;",
          "}",
        ),
        strategy: "block-anchor",
      },
    );
  });

  it("does not match when the middle is too different", () => {
    const error = failed(file, {
      oldString: "function total(items) {\n  const everything = computeSomethingElseEntirely();\n}",
      newString: "x",
    });
    expect(error.code).toBe("E_NOT_FOUND");
  });

  it("refuses when two blocks share the anchors", () => {
    const twice = lines("begin", "  step(1);", "end", "begin", "  step(2);", "end");
    const error = failed(twice, { oldString: "begin\n  step(3);\nend", newString: "x" });
    expect(error.code).toBe("E_MULTIPLE_MATCHES");
    expect(error.message).toContain("(block-anchor) it fits 2 places, at lines 1, 4.");
  });

  it("re-indents by the scaled rule its anchors and unchanged middle lines agree on", () => {
    const python = lines(
      "def total(items):",
      "    result = 0",
      "    for item in items:",
      "        result += item.price",
      "    return result",
    );
    expectEdit(
      python,
      {
        oldString:
          "def total(items):\n  result = 0\n  for item in items:\n    result += item.cost\n  return result",
        newString:
          "def total(items):\n  result = 0\n  for item in items:\n    result += item.price * item.qty\n  return result",
      },
      {
        content: lines(
          "def total(items):",
          "    result = 0",
          "    for item in items:",
          "        result += item.price * item.qty",
          "    return result",
        ),
        strategy: "block-anchor",
      },
    );
  });

  it("refuses when an unchanged middle line contradicts the indentation its anchors suggest", () => {
    const python = lines(
      "def f(xs):",
      "    n = 0",
      "    for x in xs:",
      "        n += x.size",
      "    return n",
    );
    // The anchors alone say 2 → 4; "for" at 6 → 4 contradicts it, so no rule places new_string.
    const error = failed(python, {
      oldString: "def f(xs):\n  n = 0\n      for x in xs:\n    n += x.len\n  return n",
      newString: "def f(xs):\n  n = 0\n      for x in xs:\n    n += len(x)\n  return n",
    });
    expect(error.code).toBe("E_NOT_FOUND");
  });

  it("loses to line-trimmed", () => {
    const file2 = lines("begin", "  step(1);  ", "end", "begin", "  step(2);", "end");
    expectEdit(
      file2,
      { oldString: "begin\n  step(1);\nend", newString: "done" },
      { content: lines("done", "begin", "  step(2);", "end"), strategy: "line-trimmed" },
    );
  });
});
