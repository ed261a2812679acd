import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { type ApprovalRequest, detectSandbox } from "@lathe/core";
import { type FakeLlm, startScriptedSession } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";

const available = (await detectSandbox()).available;
let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const shell = (command: string) => ({ tool_calls: [{ name: "run_terminal_cmd", arguments: { command } }] });

describe.skipIf(!available)("sandboxed commands in a session", () => {
  it("asks before a command that needs the network, even in yolo mode", async () => {
    const asked: ApprovalRequest[] = [];
    const s = await startScriptedSession([shell("npm install left-pad"), { text: "skipped" }], {
      approvalMode: "yolo",
      sandbox: { mode: "required", network: false },
      requestApproval: async (request) => {
        asked.push(request);
        return { decision: "reject", message: "no downloads" };
      },
    });
    server = s.server;
    await s.session.send("add left-pad");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.reason).toContain("it needs the network, which the sandbox cuts off");
    expect(existsSync(path.join(s.projectRoot, "node_modules"))).toBe(false);
    await s.session.dispose();
  });

  it("offers to run a command the sandbox blocked again outside it", async () => {
    // /var/tmp is read-only inside the sandbox (only the project and a private /tmp are writable).
    const outside = mkdtempSync("/var/tmp/lathe-outside-");
    const target = path.join(outside, "out.txt");
    const asked: ApprovalRequest[] = [];
    const s = await startScriptedSession([shell(`echo written > ${target}`), { text: "done" }], {
      approvalMode: "yolo",
      sandbox: { mode: "required", network: false },
      requestApproval: async (request) => {
        asked.push(request);
        return { decision: "accept" };
      },
    });
    server = s.server;
    try {
      await s.session.send("write the file");
      expect(asked.map((r) => r.reason)).toEqual([
        "the sandbox blocked this command; run it again outside the sandbox?",
      ]);
      expect(readFileSync(target, "utf8")).toBe("written\n");
      const [result] = s.session.messages.flatMap((m) => m.parts).filter((p) => p.type === "tool_result");
      expect(result!.status).toBe("success");
    } finally {
      await s.session.dispose();
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
