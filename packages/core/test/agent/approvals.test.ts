import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { type ApprovalRequest, loadRuleLayers } from "@lathe/core";
import { type FakeLlm, startScriptedSession } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";

const servers: FakeLlm[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const shell = (command: string) => ({ tool_calls: [{ name: "run_terminal_cmd", arguments: { command } }] });
const touch = (file: string) => shell(`touch ${file}`);

describe("approvals", () => {
  it("an unanswered approval counts as rejected after the timeout", async () => {
    const s = await startScriptedSession([touch("late.txt"), { text: "It timed out." }], {
      approvalMode: "ask_first",
      approvalTimeoutMs: 150,
      requestApproval: () => new Promise(() => {}),
    });
    servers.push(s.server);
    const result = await s.session.send("touch a file");
    expect(result.status).toBe("completed");
    const [call] = s.session.messages.flatMap((m) => m.parts).filter((p) => p.type === "tool_result");
    expect(call!.status).toBe("rejected");
    expect(call!.output).toBe(
      "Error E_USER_REJECTED: Nobody answered the approval request within 150 ms, so it counts as rejected.\nHint: The user declined; change course and do not repeat this call.",
    );
    expect(existsSync(path.join(s.projectRoot, "late.txt"))).toBe(false);
  });

  it('"always" writes a prefix rule that the next session honours without asking', async () => {
    const first = await startScriptedSession(
      [shell("git add one.txt"), shell("git add two.txt"), { text: "done" }],
      {
        approvalMode: "ask_first",
        requestApproval: async () => ({ decision: "accept", always: "project-local" }),
      },
    );
    servers.push(first.server);
    await first.session.send("touch two files");
    const settings = JSON.parse(
      readFileSync(path.join(first.projectRoot, ".lathe", "settings.local.json"), "utf8"),
    );
    expect(settings).toEqual({ permissions: { allow: ["run_terminal_cmd(git add *)"] } });
    // Asked once: the rule granted by the first answer already covers the second call.
    expect(first.events.filter((e) => e.type === "approval_required")).toHaveLength(1);

    const asked: ApprovalRequest[] = [];
    const rules = loadRuleLayers({ latheHome: first.latheHome, projectRoot: first.projectRoot }).rules;
    const second = await startScriptedSession([shell("git add three.txt"), { text: "done" }], {
      projectRoot: first.projectRoot,
      approvalMode: "ask_first",
      rules,
      requestApproval: async (request) => {
        asked.push(request);
        return { decision: "reject" };
      },
    });
    servers.push(second.server);
    await second.session.send("touch another");
    expect(asked).toEqual([]);
    const [ran] = second.session.messages.flatMap((m) => m.parts).filter((p) => p.type === "tool_result");
    expect(ran!.status).toBe("success");
  });

  it('shows the exact rule "always" saves, and saves no broader one', async () => {
    const asked: ApprovalRequest[] = [];
    const s = await startScriptedSession(
      [shell("find . -name x -delete"), shell("find . -name y -exec touch marker ';'"), { text: "done" }],
      {
        approvalMode: "ask_first",
        requestApproval: async (request) => {
          asked.push(request);
          return asked.length === 1
            ? { decision: "accept", always: "project-local" }
            : { decision: "reject" };
        },
      },
    );
    servers.push(s.server);
    await s.session.send("clean up");
    expect(asked.map((request) => request.alwaysRules)).toEqual([
      ["run_terminal_cmd(find . -name x -delete)"],
      ["run_terminal_cmd(find . -name y -exec touch marker ';')"],
    ]);
    const events = s.events.filter((e) => e.type === "approval_required");
    expect(events.map((e) => e.type === "approval_required" && e.alwaysRules)).toEqual(
      asked.map((request) => request.alwaysRules),
    );
    const settings = JSON.parse(
      readFileSync(path.join(s.projectRoot, ".lathe", "settings.local.json"), "utf8"),
    );
    expect(settings).toEqual({ permissions: { allow: ["run_terminal_cmd(find . -name x -delete)"] } });
    // The saved rule did not cover the -exec call: it was asked about, rejected, and never ran.
    expect(existsSync(path.join(s.projectRoot, "marker"))).toBe(false);
  });

  it('offers no rule where "always" cannot save one', async () => {
    const asked: ApprovalRequest[] = [];
    const s = await startScriptedSession([shell("sudo touch x"), { text: "done" }], {
      approvalMode: "ask_first",
      requestApproval: async (request) => {
        asked.push(request);
        return { decision: "accept", always: "project-local" };
      },
    });
    servers.push(s.server);
    await s.session.send("touch");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.alwaysRules).toBeUndefined();
    expect(existsSync(path.join(s.projectRoot, ".lathe", "settings.local.json"))).toBe(false);
  });
});
