import { describe, expect, it } from "vitest";
import { analyzeTaskComplexity, complexityHints } from "../../src/planning/taskComplexity.js";

describe("analyzeTaskComplexity", () => {
  it.each([
    ["create a snake game in one HTML file", "SIMPLE"],
    ["What does this function do?", "SIMPLE"],
    ["写一个贪吃蛇游戏", "SIMPLE"],
    ["解释一下这个函数是什么意思", "SIMPLE"],
    ["fix the bug in src/auth/login.ts", "MODERATE"],
    ["Add a dark mode toggle to the settings page", "MODERATE"],
    ["修复登录页面的 bug", "MODERATE"],
    ["给设置页面添加一个深色模式开关", "MODERATE"],
    ["Refactor the auth module to use JWT", "COMPLEX"],
    ["migrate the whole project from Jest to Vitest", "COMPLEX"],
    ["重构整个项目的数据库层", "COMPLEX"],
    ["把所有 API 迁移到新的架构", "COMPLEX"],
    ["添加用户注册功能，然后编写测试，并且更新文档", "COMPLEX"],
    [
      "Update src/App.tsx, src/theme.ts, test/theme.test.ts and docs/README.md to support the new colors",
      "COMPLEX",
    ],
    ["1. add a users table\n2. add the API route\n3. write tests", "COMPLEX"],
  ])("%s → %s", (prompt, level) => {
    const analysis = analyzeTaskComplexity(prompt);
    expect(analysis.level).toBe(level);
    expect(analysis.hint).toBe(complexityHints[analysis.level]);
  });

  it("says why", () => {
    expect(analyzeTaskComplexity("Refactor src/a.ts and src/b.ts, then run the tests").reasons).toEqual([
      'complex-task words: "refactor"',
      'change words: "tests"',
      "2 files named",
      "2 steps",
    ]);
    expect(analyzeTaskComplexity("重构整个模块，然后修复测试").reasons).toEqual([
      'complex-task words: "重构", "整个"',
      'change words: "修复", "测试"',
      "2 steps",
    ]);
    expect(analyzeTaskComplexity("create a todo app").reasons).toEqual(['simple-request words: "create a"']);
  });

  it("lists English and Chinese words in the order they come, whole English words only", () => {
    expect(analyzeTaskComplexity("修复 the Bug, FIX 测试 and prefix fixture").reasons).toEqual([
      'change words: "修复", "bug", "fix", "测试"',
    ]);
  });

  it("counts a long request as a sign of size", () => {
    const long = `Please look at the logging. ${"The output should keep every field we log today and stay readable. ".repeat(10)}`;
    const analysis = analyzeTaskComplexity(long);
    // 125 words × 1.3: an estimate, close to the 137 the o200k tokenizer counts.
    expect(analysis.reasons).toEqual(["long request (163 tokens)"]);
    expect(analysis.level).toBe("SIMPLE");
    expect(analyzeTaskComplexity(`Fix the logging. ${long}`).level).toBe("MODERATE");
  });

  it("counts a CJK character as a token and a run of other letters as a word", () => {
    // 40 Han, 40 katakana and 40 Hangul characters, and 10 words of Cyrillic and Latin script.
    const mixed = `${"文字".repeat(20)}${"テスト".repeat(13)}テ${"한국어".repeat(13)}한 ${"слово word ".repeat(5)}`;
    expect(analyzeTaskComplexity(mixed).reasons).toEqual(["long request (133 tokens)"]);
  });

  it("gives a strategy hint per level", () => {
    expect(complexityHints.SIMPLE).toContain("act directly");
    expect(complexityHints.MODERATE).toContain("read the relevant files first");
    expect(complexityHints.COMPLEX).toContain("todo_write");
    expect(complexityHints.COMPLEX).toContain("run the tests after each step");
  });
});
