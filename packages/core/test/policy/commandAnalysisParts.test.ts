import { describe, expect, test } from "vitest";
import { expandBraces } from "../../src/policy/commandAnalysis/braceExpansion.js";
import {
  hasOption,
  parseArgs,
  splitSubcommand,
  staticWord,
} from "../../src/policy/commandAnalysis/commandArgs.js";
import { loadCommandParser } from "../../src/policy/commandAnalysis/commandParser.js";
import {
  classifyTarget,
  classifyWriteTarget,
  isPureGlob,
  type PathContext,
} from "../../src/policy/commandAnalysis/pathClasses.js";
import { sedScriptIsReadOnly } from "../../src/policy/commandAnalysis/sedScript.js";
import {
  changeDirectory,
  projectRootLocation,
  resolveLocation,
} from "../../src/policy/commandAnalysis/shellLocation.js";
import { blocked, combineVerdicts, safeReadOnly, verdict } from "../../src/policy/commandAnalysis/verdict.js";
import { decodeAnsiC } from "../../src/policy/rules/shellText.js";

const words = (...values: string[]) => values.map(staticWord);
const atProject: PathContext = { cwd: projectRootLocation };

describe("loadCommandParser", () => {
  test("loads once and shares the parser", async () => {
    const [a, b] = await Promise.all([loadCommandParser(), loadCommandParser()]);
    expect(a).toBe(b);
    const tree = a.parse("ls -la");
    expect(tree.rootNode.type).toBe("program");
    tree.delete();
  });
});

describe("decodeAnsiC", () => {
  test.each([
    ["a\\nb", "a\nb"],
    ["\\x72m", "rm"],
    ["\\162m", "rm"],
    ["\\u0072m", "rm"],
    ["it\\'s", "it's"],
    ["\\\\", "\\"],
    ["\\e[0m", "\x1b[0m"],
    ["\\cA", "\x01"],
    ["plain", "plain"],
    ["\\q", "\\q"],
  ])("%j decodes to %j", (body, decoded) => {
    expect(decodeAnsiC(body)).toBe(decoded);
  });
});

describe("expandBraces", () => {
  const active = (text: string) => [...text].map(() => true);
  test("expands alternatives, nested groups and keeps groups without commas", () => {
    expect(expandBraces("/{etc,usr}", active("/{etc,usr}"))).toEqual(["/etc", "/usr"]);
    expect(expandBraces("a{b,c{d,e}}f", active("a{b,c{d,e}}f"))).toEqual(["abf", "acdf", "acef"]);
    expect(expandBraces("/{,}", active("/{,}"))).toEqual(["/", "/"]);
    expect(expandBraces("{}", active("{}"))).toEqual(["{}"]);
    expect(expandBraces("x{1..3}", active("x{1..3}"))).toEqual(["x{1..3}"]);
  });

  test("quoted braces are literal", () => {
    const text = "/{etc,usr}";
    expect(
      expandBraces(
        text,
        [...text].map(() => false),
      ),
    ).toEqual([text]);
  });

  test("stops at a bounded number of words", () => {
    const text = "{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}";
    expect(expandBraces(text, active(text)).length).toBeLessThanOrEqual(64);
  });
});

describe("parseArgs", () => {
  test("splits short clusters, long options and operands in any order", () => {
    const parsed = parseArgs(words("/", "-rf", "--no-preserve-root", "x"));
    expect(parsed.options.map((o) => o.name)).toEqual(["r", "f", "no-preserve-root"]);
    expect(parsed.operands.map((w) => w.value)).toEqual(["/", "x"]);
    expect(hasOption(parsed, "rR", "recursive")).toBe(true);
  });

  test("takes option values attached, separate or after =", () => {
    const parsed = parseArgs(words("-ofile", "-t", "dir", "--output=x", "--target", "y", "op"), {
      shortWithValue: "ot",
      longWithValue: ["target"],
    });
    expect(parsed.options.map((o) => [o.name, o.value?.value])).toEqual([
      ["o", "file"],
      ["t", "dir"],
      ["output", "x"],
      ["target", "y"],
    ]);
    expect(parsed.operands.map((w) => w.value)).toEqual(["op"]);
  });

  test("-- ends options and abbreviated long options match", () => {
    const parsed = parseArgs(words("--rec", "--", "-rf"));
    expect(hasOption(parsed, undefined, "recursive")).toBe(true);
    expect(parsed.operands.map((w) => w.value)).toEqual(["-rf"]);
  });

  test("splitSubcommand stops at the first operand", () => {
    const sub = splitSubcommand(words("-C", "dir", "push", "--force"), { shortWithValue: "C" });
    expect(sub.name).toBe("push");
    expect(sub.rest.map((w) => w.value)).toEqual(["--force"]);
  });
});

describe("shell locations", () => {
  test("resolve against the current directory", () => {
    expect(resolveLocation("/usr/../etc/", projectRootLocation)).toEqual({ base: "absolute", path: "/etc" });
    expect(resolveLocation("~/x/..", projectRootLocation)).toEqual({ base: "home", rel: "" });
    expect(resolveLocation("a/../../b", projectRootLocation)).toEqual({ base: "project", rel: "../b" });
    expect(resolveLocation("x", { base: "unknown" })).toEqual({ base: "unknown" });
  });

  test("cd follows paths, home and unknowns", () => {
    expect(changeDirectory(projectRootLocation, "/")).toEqual({ base: "absolute", path: "/" });
    expect(changeDirectory(projectRootLocation, undefined)).toEqual({ base: "home", rel: "" });
    expect(changeDirectory(projectRootLocation, "-")).toEqual({ base: "unknown" });
    expect(changeDirectory({ base: "absolute", path: "/srv" }, "..")).toEqual({
      base: "absolute",
      path: "/",
    });
  });
});

describe("classifyTarget", () => {
  test.each([
    ["/", "root"],
    ["//", "root"],
    ["/*", "rootGlob"],
    ["/e*", "rootGlob"],
    ["/etc", "systemDir"],
    ["/usr/*", "systemDir"],
    ["/usr/local/lib", "system"],
    ["~", "home"],
    ["~/*", "home"],
    ["~/.ssh", "homePath"],
    ["~/..", "ancestor"],
    ["..", "ancestor"],
    ["../../*", "ancestor"],
    ["../sibling", "outside"],
    [".", "projectRoot"],
    ["*", "projectRoot"],
    ["src/old", "project"],
    ["/tmp/x", "temp"],
    ["/var/tmp/x/y", "temp"],
    ["/opt2/x", "outside"],
  ])("%s is %s without a project root", (value, expected) => {
    expect(classifyTarget(value, atProject)).toBe(expected);
  });

  test("with a project root and home, absolute and relative paths are placed exactly", () => {
    const ctx: PathContext = { cwd: projectRootLocation, projectRoot: "/home/me/proj", homeDir: "/home/me" };
    expect(classifyTarget("/home/me/proj/dist", ctx)).toBe("project");
    expect(classifyTarget("/home/me/proj", ctx)).toBe("projectRoot");
    expect(classifyTarget("/home/me", ctx)).toBe("ancestor");
    expect(classifyTarget("/home/me/other", ctx)).toBe("homePath");
    expect(classifyTarget("~/proj/src", ctx)).toBe("project");
    expect(classifyTarget("../../..", ctx)).toBe("root");
    expect(classifyTarget("../sibling", ctx)).toBe("homePath");
    expect(classifyTarget("/home/*", ctx)).toBe("ancestor");
  });

  test("after cd /, relative globs are at the root", () => {
    expect(classifyTarget("*", { cwd: { base: "absolute", path: "/" } })).toBe("rootGlob");
    expect(classifyTarget("x", { cwd: { base: "unknown" } })).toBe("unknown");
  });

  test("pure globs match anything", () => {
    expect(["*", ".*", "*.*", ".??*", "[!.]*"].every(isPureGlob)).toBe(true);
    expect(["*.log", "src", "a*"].some(isPureGlob)).toBe(false);
  });
});

describe("classifyWriteTarget", () => {
  test.each([
    ["/dev/null", "discard"],
    ["/dev/stderr", "discard"],
    ["/dev/fd/3", "discard"],
    ["/dev/sda", "disk"],
    ["/dev/nvme0n1p2", "disk"],
    ["/dev/mmcblk0", "disk"],
    ["/dev/ttyS0", "device"],
    ["/etc/hosts", "system"],
    ["~/.bashrc", "home"],
    ["/tmp/out.txt", "elsewhere"],
    ["../x.txt", "elsewhere"],
    ["out.txt", "project"],
  ])("%s is %s", (value, expected) => {
    expect(classifyWriteTarget(value, atProject)).toBe(expected);
  });
});

describe("sedScriptIsReadOnly", () => {
  test.each([
    "1,5p",
    "/re/p",
    "s/a/b/g",
    "s|a|b|2p",
    "/x/d;s/a/b/",
    "$!N;P;D",
    "1~2{p;n}",
    "y/abc/xyz/",
    "a hello",
    "r other.txt",
    "s/w/e/g",
  ])("%j only prints", (script) => {
    expect(sedScriptIsReadOnly(script)).toBe(true);
  });

  test.each([
    "1w out",
    "s/a/b/w out",
    "s/a/b/e",
    "/x/e date",
    "W out",
    "e",
    "s/a/b",
    "K",
  ])("%j does not", (script) => {
    expect(sedScriptIsReadOnly(script)).toBe(false);
  });
});

describe("combineVerdicts", () => {
  test("keeps the worst, prefers a block, joins network and read-only", () => {
    const combined = combineVerdicts([
      safeReadOnly("a"),
      { ...verdict("medium", "b", true), needsNetwork: true },
      verdict("critical", "c"),
      blocked("d"),
    ]);
    expect(combined.risk).toBe("critical");
    expect(combined.reason).toBe("d");
    expect(combined.block?.code).toBe("E_COMMAND_BLOCKED");
    expect(combined.needsNetwork).toBe(true);
    expect(combined.readOnly).toBe(false);
  });

  test("nothing is safe", () => {
    expect(combineVerdicts([]).risk).toBe("safe");
  });
});
