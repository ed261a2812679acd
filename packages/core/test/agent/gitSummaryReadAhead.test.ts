import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type ScriptedSession, startScriptedSession } from "@lathe/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readGitSummary } from "../../src/context/prompt/index.js";
import { isolatedGit } from "../isolatedGit.js";

let repository: string;
const sessions: ScriptedSession[] = [];
beforeEach(() => {
  repository = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-read-ahead-")));
  git("init", "-q", "-b", "main");
});
afterEach(async () => {
  for (const scripted of sessions.splice(0)) await scripted.close();
  rmSync(repository, { recursive: true, force: true });
});

const git = (...args: string[]) => isolatedGit(repository, ...args);

function commit(file: string, message: string): void {
  writeFileSync(path.join(repository, file), `${file}\n`);
  git("add", file);
  git("commit", "-q", "-m", message);
}

async function session(answers: string[]) {
  const scripted = await startScriptedSession(
    answers.map((text) => ({ text })),
    { projectRoot: repository },
  );
  sessions.push(scripted);
  return scripted;
}

/** The system prompt of each request the session's model server received. */
const systemPrompts = (scripted: ScriptedSession) =>
  scripted.server.requests.map((request) => {
    const body = request.body as { messages: { content?: unknown }[] };
    return String(body.messages[0]?.content);
  });

describe("a git summary read ahead", () => {
  it("gives the first request the same system prompt as a run that reads git itself", async () => {
    commit("alpha.txt", "Add the alpha file");
    writeFileSync(path.join(repository, "draft.txt"), "not committed\n");
    const readingGit = await session(["ok"]);
    const readAhead = await session(["ok"]);

    readAhead.session.context.acceptGitSummaryReadAhead(readGitSummary(repository));
    await readAhead.session.send("hello");
    await readingGit.session.send("hello");

    const [expected] = systemPrompts(readingGit);
    expect(expected).toContain("Git: branch main; 1 file with uncommitted changes");
    expect(expected).toMatch(/\n- [0-9a-f]{7,} Add the alpha file\n/);
    expect(systemPrompts(readAhead)).toEqual([expected]);
  });

  it("serves the first run only: the next run reads git again", async () => {
    commit("alpha.txt", "Add the alpha file");
    const summary = readGitSummary(repository);
    await summary;
    commit("beta.txt", "Add the beta file");
    const scripted = await session(["one", "two"]);

    scripted.session.context.acceptGitSummaryReadAhead(summary);
    await scripted.session.send("first");
    await scripted.session.send("second");

    const [first, second] = systemPrompts(scripted);
    expect(first).toContain("Add the alpha file");
    expect(first).not.toContain("Add the beta file");
    expect(second).toMatch(
      /Recent commits:\n- [0-9a-f]{7,} Add the beta file\n- [0-9a-f]{7,} Add the alpha file\n/,
    );
  });
});
