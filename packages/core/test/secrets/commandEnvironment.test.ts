import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeKeys } from "@lathe/testkit";
import { describe, expect, it } from "vitest";
import { commandEnvironment } from "../../src/processes/commandEnvironment.js";
import { spawnShell } from "../../src/processes/shellProcess.js";

const base = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/someone",
  LANG: "C.UTF-8",
  TERM: "xterm-256color",
  SSH_AUTH_SOCK: "/tmp/agent.sock",
  OPENAI_API_KEY: fakeKeys.openaiSecret,
  ANTHROPIC_API_KEY: fakeKeys.anthropic,
  GITHUB_TOKEN: fakeKeys.github,
  NPM_TOKEN: "npm-token-value-123",
  COPY_OF_KEY: `prefix ${fakeKeys.anthropic}`,
  PROJECT_KEY_NOTE: fakeKeys.openaiProject,
  FORCE_COLOR: "1",
};

describe("commandEnvironment", () => {
  it("drops secrets by name and by value, keeps the rest, and turns pagers and colours off", () => {
    expect(commandEnvironment({}, base)).toEqual({
      PATH: "/usr/bin:/bin",
      HOME: "/home/someone",
      LANG: "C.UTF-8",
      TERM: "xterm-256color",
      SSH_AUTH_SOCK: "/tmp/agent.sock",
      LATHE: "1",
      PAGER: "cat",
      GIT_PAGER: "cat",
      GIT_TERMINAL_PROMPT: "0",
      NO_COLOR: "1",
    });
  });

  it("keeps the variables the user passes by name, and only those", () => {
    const env = commandEnvironment({ passEnvironment: ["NPM_TOKEN", "NOT_SET"] }, base);
    expect(env.NPM_TOKEN).toBe("npm-token-value-123");
    expect(Object.keys(env).filter((name) => name.endsWith("TOKEN") || name.includes("KEY"))).toEqual([
      "NPM_TOKEN",
    ]);
    expect("NOT_SET" in env).toBe(false);
  });
});

describe("spawnShell", () => {
  const run = (command: string, passEnvironment?: string[]) =>
    new Promise<string>((resolve) => {
      const cwd = mkdtempSync(join(tmpdir(), "lathe-env-"));
      const child = spawnShell(command, cwd, undefined, { passEnvironment });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
      });
      child.on("close", () => resolve(out));
    });

  it("starts bash without the keys of Lathe's own environment", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: fakeKeys.openaiSecret, NPM_TOKEN: "npm-token-value-123" });
    try {
      const env = await run("env");
      expect(env).not.toContain(fakeKeys.openaiSecret);
      expect(env).not.toContain("npm-token-value-123");
      expect(env).toContain("LATHE=1\n");
      expect(await run("printenv NPM_TOKEN; echo end", ["NPM_TOKEN"])).toBe("npm-token-value-123\nend\n");
      expect(await run("printenv OPENAI_API_KEY; echo end", ["NPM_TOKEN"])).toBe("end\n");
    } finally {
      for (const name of ["OPENAI_API_KEY", "NPM_TOKEN"]) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });

  it("is what bash gets: HOME and PATH are the user's", async () => {
    const printed = await run('printf "%s\\n%s\\n" "$HOME" "$PATH"');
    expect(printed).toBe(`${process.env.HOME}\n${process.env.PATH}\n`);
  });
});
