import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { isLongSpelling } from "../../src/policy/commandAnalysis/commandArgs.js";
import { analyzeCommand, loadCommandParser } from "../../src/policy/commandAnalysis/index.js";
import { joinLineContinuations } from "../../src/policy/commandAnalysis/lineContinuations.js";
import { commandForRules } from "../../src/policy/rules/commandSegments.js";
import { decodeAnsiC } from "../../src/policy/rules/shellText.js";

beforeAll(async () => {
  await loadCommandParser();
});

describe("one shell reader", () => {
  // Each line is one simple command: the permission rules and the risk analysis must read the
  // same words from it, whatever the quoting, escapes or line continuations.
  test.each([
    ["$'\\x72m' -rf x", ["rm", "-rf", "x"]],
    ["$'\\162\\155' x", ["rm", "x"]],
    ["$'r\\0m' x", ["r", "x"]],
    ["r\\\nm -rf x", ["rm", "-rf", "x"]],
    ["echo \"a\\$b\" 'c d' e\\ f", ["echo", "a$b", "c d", "e f"]],
    ["ls $'\\101\\u0042'", ["ls", "AB"]],
    ['grep -e "x\\"y" f', ["grep", "-e", 'x"y', "f"]],
    ['echo $"hi"', ["echo", "hi"]],
    ['echo "r\\\nm"', ["echo", "rm"]],
    ["echo \\$HOME ~/x", ["echo", "$HOME", "~/x"]],
    ["echo 'a\\\nb'", ["echo", "a\\\nb"]],
  ] as const)("%j", async (command, words) => {
    const rules = commandForRules(command).segments.map((s) => s.words.map((w) => w.value));
    const analysis = (await analyzeCommand(command)).segments.map((s) => s.argv);
    expect(rules).toEqual([words]);
    expect(analysis).toEqual([words]);
  });

  test("unquoted expansions are split at IFS, quoted ones are not", async () => {
    const lastArgv = async (command: string) => (await analyzeCommand(command)).segments.at(-1)?.argv;
    expect(await lastArgv("x='a  b'; ls $x \"$x\"")).toEqual(["ls", "a", "b", "a  b"]);
    expect(await lastArgv("x='a::b:'; IFS=:; ls $x")).toEqual(["ls", "a", "", "b"]);
    expect(await lastArgv("e=; ls $e x")).toEqual(["ls", "x"]);
  });

  test("a NUL ends a $'…' string, as in bash", () => {
    expect(decodeAnsiC("rm\\0 -rf /")).toBe("rm");
    expect(decodeAnsiC("a\\x00b")).toBe("a");
  });

  test("a line that does not parse is also read as the rules read it", async () => {
    const analysis = await analyzeCommand("(rm -rf ~; echo ok");
    expect(analysis.block?.code).toBe("E_COMMAND_BLOCKED");
    expect(analysis.segments.some((s) => s.reason.startsWith("read without the parser"))).toBe(true);
  });
});

describe("joinLineContinuations", () => {
  test.each([
    ["r\\\nm -rf /", "rm -rf /"],
    ["ls \\\n  -la", "ls   -la"],
    ["echo 'a\\\nb'", "echo 'a\\\nb'"],
    ["# note \\\nrm x", "# note \\\nrm x"],
    ['echo "a\\\nb"', 'echo "ab"'],
    ["echo \\\\\nls", "echo \\\\\nls"],
    ["plain", "plain"],
  ])("%j reads as %j", (source, joined) => {
    expect(joinLineContinuations(source)).toBe(joined);
  });
});

describe("long options", () => {
  test("any prefix spells the option, as getopt_long reads an unambiguous one", () => {
    expect(isLongSpelling("r", "recursive")).toBe(true);
    expect(isLongSpelling("in", "in-place")).toBe(true);
    expect(isLongSpelling("recursive", "recursive")).toBe(true);
    expect(isLongSpelling("", "recursive")).toBe(false);
    expect(isLongSpelling("recursively", "recursive")).toBe(false);
    expect(isLongSpelling("x", "recursive")).toBe(false);
  });
});

describe("sensitive paths in commands, with the real project, home and LATHE_HOME", () => {
  let base: string;
  let projectRoot: string;
  let homeDir: string;
  let latheHome: string;

  beforeAll(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-command-paths-")));
    projectRoot = path.join(base, "project");
    homeDir = path.join(base, "home");
    latheHome = path.join(base, "lathe-home");
    for (const dir of [projectRoot, homeDir, latheHome]) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(projectRoot, ".env"), "KEY=1\n");
    symlinkSync(".env", path.join(projectRoot, "notes.txt"));
    writeFileSync(path.join(projectRoot, "README.md"), "hello\n");
    writeFileSync(path.join(latheHome, "settings.json"), "{}\n");
  });

  afterAll(() => {
    rmSync(base, { recursive: true, force: true });
  });

  const options = () => ({ projectRoot, homeDir, latheHome });

  test.each([
    ["cat notes.txt", "critical"],
    ["cat README.md", "safe"],
    ["cat $LATHE_HOME/settings.json", "critical"],
    ["cd .git && cat config", "critical"],
    ["cat ../home/.ssh/known_hosts", "critical"],
    ["grep -n hello README.md", "safe"],
  ] as const)("%s is %s", async (command, risk) => {
    expect((await analyzeCommand(command, options())).risk).toBe(risk);
  });

  test("paths that only the options place are sensitive only with them", async () => {
    const inLatheHome = `cat ${path.join(latheHome, "settings.json")}`;
    expect((await analyzeCommand(inLatheHome, options())).risk).toBe("critical");
    expect((await analyzeCommand(inLatheHome, { projectRoot })).risk).toBe("safe");
    const inHome = `echo x >> ${path.join(homeDir, ".bashrc")}`;
    expect((await analyzeCommand(inHome, options())).reason).toContain("a sensitive file (.bashrc)");
  });
});
