import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type ServeProcess, startServe } from "./serveProcess.js";
import { type PlantedRepository, plantedRepository } from "./trustFixture.js";

let llm: FakeLlm | undefined;
let serve: ServeProcess | undefined;
afterEach(async () => {
  await serve?.stop();
  await llm?.close();
  serve = undefined;
  llm = undefined;
});

const q = (params: Record<string, string>) => `?${new URLSearchParams(params)}`;

async function serveRepository(): Promise<{ repo: PlantedRepository; s: ServeProcess }> {
  const repo = plantedRepository();
  llm = await startFakeLlm({ script: { turns: [{ text: "Hello." }, { text: "Hello again." }] } });
  writeFileSync(
    join(repo.home, "settings.json"),
    JSON.stringify({
      model: "openai:gpt-4.1",
      baseUrls: { openai: `${llm.url}/v1` },
      sandbox: { mode: "off" },
      checkpoints: { enabled: false },
    }),
  );
  serve = await startServe({
    cwd: repo.root,
    home: repo.home,
    env: { OPENAI_API_KEY: fakeKeys.openai, HOME: repo.userHome },
  });
  return { repo, s: serve };
}

/** Opens a session in the project, sends one message and waits until the session is idle again. */
async function oneRun(s: ServeProcess, projectRoot: string) {
  const created = await s.api("POST", "/api/sessions", { projectRoot });
  expect(created.status).toBe(201);
  const { id } = created.body as { id: string };
  const stream = await s.stream(id);
  expect((await s.api("POST", `/api/sessions/${id}/messages`, { text: "hi" })).status).toBe(202);
  await stream.waitFor((m) => m.type === "run_complete");
  await stream.waitFor((m) => m.type === "state_change" && m.to === "idle");
  await stream.close();
  expect((await s.api("DELETE", `/api/sessions/${id}`)).status).toBe(200);
}

describe("lathe serve: workspace trust", () => {
  it("tells what a folder would run, runs sessions without it until trusted, and trusts only what was shown", async () => {
    const { repo, s } = await serveRepository();
    expect((await fetch(`${s.origin}/api/trust${q({ projectRoot: repo.root })}`)).status).toBe(401);

    const shown = await s.api("GET", `/api/trust${q({ projectRoot: repo.root })}`);
    expect(shown.status).toBe(200);
    const reply = shown.body as {
      status: string;
      trusted: boolean;
      fingerprint: string;
      files: { path: string; effects: string[] }[];
    };
    expect(reply).toMatchObject({ projectRoot: repo.root, status: "untrusted", trusted: false, changes: [] });
    expect(reply.files[0]).toEqual({
      path: ".lathe/hooks.json",
      kind: "hooks",
      effects: [
        `SessionStart hook runs: touch ${join(repo.markers, "session-start")}`,
        `UserPromptSubmit hook runs: touch ${join(repo.markers, "user-prompt-submit")}`,
        `PreToolUse hook runs: touch ${join(repo.markers, "pre-tool-use")}`,
        `PostToolUse hook runs: touch ${join(repo.markers, "post-tool-use")}`,
        `Stop hook runs: touch ${join(repo.markers, "stop")}`,
      ],
    });

    await oneRun(s, repo.root);
    expect(repo.markersNow()).toEqual([]);

    const stale = await s.api("POST", "/api/trust", { projectRoot: repo.root, fingerprint: "0".repeat(64) });
    expect(stale).toMatchObject({ status: 409, body: { error: { code: "E_STALE_FILE" } } });
    expect(() => readFileSync(join(repo.home, "trust.json"))).toThrow();
    const bad = await s.api("POST", "/api/trust", { projectRoot: repo.root, fingerprint: "nope" });
    expect(bad.status).toBe(400);

    const granted = await s.api("POST", "/api/trust", {
      projectRoot: repo.root,
      fingerprint: reply.fingerprint,
    });
    expect(granted).toMatchObject({
      status: 200,
      body: { status: "trusted", trusted: true, trustedBy: "record" },
    });
    expect((await s.api("GET", `/api/trust${q({ projectRoot: repo.root })}`)).body).toMatchObject({
      status: "trusted",
      fingerprint: reply.fingerprint,
    });

    await oneRun(s, repo.root);
    expect(repo.markersNow()).toEqual(
      expect.arrayContaining(["mcp-cursor", "mcp-lathe", "session-start", "user-prompt-submit"]),
    );
  });
});
