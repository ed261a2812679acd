import { beforeAll, describe, expect, test } from "vitest";
import {
  analyzeCommand,
  analyzeCommandWith,
  loadCommandParser,
} from "../../src/policy/commandAnalysis/index.js";

beforeAll(async () => {
  await loadCommandParser();
});

describe("segments", () => {
  test("every part of lists, pipelines and substitutions is a segment", async () => {
    const analysis = await analyzeCommand("cd src && ls -la | grep ts; echo $(whoami) > out.txt");
    expect(analysis.segments.map((s) => s.argv)).toEqual([
      ["cd", "src"],
      ["ls", "-la"],
      ["grep", "ts"],
      ["whoami"],
      ["echo", "$(whoami)"],
    ]);
    expect(analysis.segments.map((s) => s.risk)).toEqual(["safe", "safe", "safe", "safe", "medium"]);
    expect(analysis.risk).toBe("medium");
    expect(analysis.reason).toBe("redirect writes to out.txt");
    expect(analysis.readOnly).toBe(false);
  });

  test("words are unquoted and expanded statically", async () => {
    const analysis = await analyzeCommand(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
      'echo \'a\'"b" x\\ c $\'\\x41\' {x,y}z ~ $HOME "${HOME}/d" $UNKNOWN "q$(true)" "e\\"f"',
    );
    expect(analysis.segments.at(-1)?.argv).toEqual([
      "echo",
      "ab",
      "x c",
      "A",
      "xz",
      "yz",
      "~",
      "~",
      "~/d",
      "$UNKNOWN",
      "q$(true)",
      'e"f',
    ]);
  });

  test("variables assigned earlier are used; conditional ones become unknown", async () => {
    const known = await analyzeCommand("D=build; rm -rf $D");
    expect(known.segments.at(-1)?.argv).toEqual(["rm", "-rf", "build"]);
    const conditional = await analyzeCommand("D=build; [ -n x ] && D=/; rm -rf $D");
    expect(conditional.segments.at(-1)?.argv).toEqual(["rm", "-rf", "$D"]);
    expect(conditional.risk).toBe("high");
  });

  test("segment text is the command with its redirects", async () => {
    const analysis = await analyzeCommand("npm test > log.txt 2>&1");
    expect(analysis.segments).toEqual([
      {
        text: "npm test > log.txt 2>&1",
        argv: ["npm", "test"],
        risk: "medium",
        reason: "redirect writes to log.txt",
      },
    ]);
  });

  test("a parse failure is its own high segment, first", async () => {
    const analysis = await analyzeCommand('ls; echo "open');
    expect(analysis.risk).toBe("high");
    expect(analysis.reason).toBe("could not be parsed");
    expect(analysis.segments[0]?.reason).toBe("could not be parsed");
    expect(analysis.readOnly).toBe(false);
  });

  test("empty and comment-only commands are safe", async () => {
    for (const command of ["", "   ", "# just a comment"]) {
      const analysis = await analyzeCommand(command);
      expect(analysis).toMatchObject({ risk: "safe", readOnly: true, segments: [] });
    }
  });

  test("overlong commands are high without parsing", async () => {
    const analysis = await analyzeCommand(`echo ${"a".repeat(70_000)}`);
    expect(analysis.risk).toBe("high");
    expect(analysis.segments).toEqual([]);
  });
});

describe("assessment fields", () => {
  test("read-only needs every segment to only read", async () => {
    expect((await analyzeCommand("git status && ls | wc -l")).readOnly).toBe(true);
    expect((await analyzeCommand("ls && touch x")).readOnly).toBe(false);
  });

  test("blocks carry E_COMMAND_BLOCKED and a reason naming the target", async () => {
    const analysis = await analyzeCommand("ls && sudo rm -rf --no-preserve-root /");
    expect(analysis.risk).toBe("critical");
    expect(analysis.block).toEqual({ code: "E_COMMAND_BLOCKED", reason: "rm -r /: the filesystem root" });
    expect(analysis.reason).toBe(analysis.block?.reason);
  });

  test("needsNetwork is set by any segment and absent otherwise", async () => {
    expect((await analyzeCommand("npm ci && npm test")).needsNetwork).toBe(true);
    expect("needsNetwork" in (await analyzeCommand("npm test"))).toBe(false);
  });

  test("nested scripts are judged with the same rules", async () => {
    const analysis = await analyzeCommand(`bash -c "sh -c 'echo ok && rm -rf ~'"`);
    expect(analysis.block?.reason).toBe("bash -c: sh -c: rm -r ~: the home directory");
  });

  test("too deep nesting is high, not followed", async () => {
    let command = "ls";
    for (let i = 0; i < 8; i++) command = `bash -c ${JSON.stringify(command)}`;
    const analysis = await analyzeCommand(command);
    expect(analysis.risk).toBe("high");
    expect(analysis.reason).toContain("nested scripts too deep");
  });
});

describe("project root and home", () => {
  const options = { projectRoot: "/work/proj", homeDir: "/home/me" };

  test.each([
    ["rm -rf /work/proj/dist", "medium", false],
    ["rm -rf dist", "medium", false],
    ["rm -rf /work/proj", "high", false],
    ["rm -rf /work", "critical", true],
    ["rm -rf ../", "critical", true],
    ["rm -rf ../other", "high", false],
    ["rm -rf /home/me", "critical", true],
    ["rm -rf /home/me/notes", "high", false],
    ["cd .. && rm -rf proj2", "high", false],
  ] as const)("%s is %s", async (command, risk, isBlocked) => {
    const analysis = await analyzeCommand(command, options);
    expect(analysis.risk).toBe(risk);
    expect(analysis.block !== undefined).toBe(isBlocked);
  });

  test("the synchronous form gives the same answer", async () => {
    const parser = await loadCommandParser();
    expect(analyzeCommandWith(parser, "rm -rf /work", options)).toEqual(
      await analyzeCommand("rm -rf /work", options),
    );
  });
});
