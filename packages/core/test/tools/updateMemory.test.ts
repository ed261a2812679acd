import { fakeKeys } from "@lathe/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteMemoryBook } from "../../src/store/memoryRecords.js";
import { updateMemoryTool } from "../../src/tools/builtin/updateMemory/updateMemory.js";
import type { ToolContext, ToolResult } from "../../src/tools/tool.js";
import { runTool } from "../../src/tools/toolInvocation.js";
import { ToolRegistry } from "../../src/tools/toolRegistry.js";
import { createStoreTestBed, type StoreTestBed } from "../store/storeTestBed.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
let storeBed: StoreTestBed;
let memories: SqliteMemoryBook;
let context: ToolContext;
beforeEach(() => {
  bed = createToolTestBed();
  storeBed = createStoreTestBed();
  memories = new SqliteMemoryBook({ db: storeBed.open().db, projectRoot: bed.projectRoot });
  context = { ...bed.context(), memories };
});
afterEach(() => {
  storeBed.cleanup();
  bed.cleanup();
});

const registry = new ToolRegistry([updateMemoryTool]);

async function call(args: Record<string, unknown>, ctx: ToolContext = context): Promise<ToolResult> {
  const validated = registry.validate("update_memory", JSON.stringify(args));
  if (!validated.ok) throw new Error(validated.error.message);
  return runTool(validated.tool, validated.args, ctx);
}

function idOf(result: ToolResult): string {
  if (!result.ok) throw new Error(result.error.message);
  return String(result.metadata?.id);
}

describe("update_memory", () => {
  it("adds project memories by default and user memories when asked", async () => {
    const project = await call({ action: "add", content: "  Use pnpm, not npm.  " });
    const projectId = idOf(project);
    expect(outputOf(project)).toBe(
      `Saved as project memory ${projectId}; later sessions of this project will see it.`,
    );
    const user = await call({ action: "add", content: "Answer in French.", scope: "user" });
    expect(outputOf(user)).toBe(
      `Saved as user memory ${idOf(user)}; later sessions of every project will see it.`,
    );
    expect(memories.list()).toEqual([
      { id: idOf(user), scope: "user", content: "Answer in French." },
      { id: projectId, scope: "project", content: "Use pnpm, not npm." },
    ]);
  });

  it("does not save the same memory twice", async () => {
    const first = idOf(await call({ action: "add", content: "Use pnpm." }));
    expect(outputOf(await call({ action: "add", content: "Use pnpm." }))).toBe(
      `Already saved as project memory ${first}.`,
    );
    expect(memories.list()).toHaveLength(1);
  });

  it("updates and deletes by id", async () => {
    const id = idOf(await call({ action: "add", content: "Use pnpm 8." }));
    expect(outputOf(await call({ action: "update", id, content: "Use pnpm 9." }))).toBe(
      `Updated project memory ${id}.`,
    );
    expect(memories.list()[0]?.content).toBe("Use pnpm 9.");
    expect(outputOf(await call({ action: "delete", id }))).toBe(`Deleted project memory ${id}.`);
    expect(memories.list()).toEqual([]);
    expect(errorOf(await call({ action: "delete", id }))).toMatchObject({
      code: "E_INVALID_ARGS",
      message: `No memory of this project or user has the id "${id}". Use an id as listed in your instructions.`,
    });
  });

  it("changes a user memory only with scope user, which is the riskier call", async () => {
    const id = idOf(await call({ action: "add", content: "Answer in French.", scope: "user" }));
    expect(errorOf(await call({ action: "delete", id }))).toMatchObject({
      code: "E_INVALID_ARGS",
      message: `Memory ${id} is a user memory: pass scope "user" to delete it.`,
    });
    expect(memories.list()).toHaveLength(1);
    expect(outputOf(await call({ action: "update", id, content: "Answer in English.", scope: "user" }))).toBe(
      `Updated user memory ${id}.`,
    );
    const root = { projectRoot: bed.projectRoot };
    expect(updateMemoryTool.risk({ action: "delete", id, scope: "user" }, root)).toBe("medium");
    expect(updateMemoryTool.risk({ action: "add", content: "x", scope: "project" }, root)).toBe("low");
    expect(updateMemoryTool.kind).toBe("other");
  });

  it("cannot touch another project's memories", async () => {
    const other = new SqliteMemoryBook({ db: storeBed.open().db, projectRoot: "/elsewhere" });
    const { id } = other.add("Deploy on Fridays.", "project");
    expect(errorOf(await call({ action: "update", id, content: "Never deploy." })).code).toBe(
      "E_INVALID_ARGS",
    );
    expect(other.list()[0]?.content).toBe("Deploy on Fridays.");
  });

  it.each([
    ["an API key (sk-…)", `The OpenAI key is ${fakeKeys.openaiProject}`],
    ["a GitHub token", `push with ${fakeKeys.github}`],
    ["an AWS access key", `AWS: ${fakeKeys.aws} in us-east-1`],
    ["a private key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA"],
    ["a password or token", "staging DB password: Tr0ub4dor&3"],
    ["a long hexadecimal key", "webhook signing key 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b"],
    ["a long random-looking token", "the token is dGhpcyBpcyBhIHNlY3JldCB0b2tlbjEyMzQ1Ng"],
  ])("refuses content that looks like %s", async (kind, content) => {
    const error = errorOf(await call({ action: "add", content }));
    expect(error.code).toBe("E_SECURITY_BLOCKED");
    expect(error.message).toBe(
      `Not saved: the content looks like ${kind}. Memories are stored in plain text and shown to every later session, so secrets are never saved. Save where the secret is kept instead.`,
    );
    expect(error.message).not.toContain(content);
    expect(memories.list()).toEqual([]);
  });

  it("refuses secrets in updates too, and leaves the memory as it was", async () => {
    const id = idOf(await call({ action: "add", content: "Deploy token lives in the CI secrets." }));
    const error = errorOf(await call({ action: "update", id, content: `token=${fakeKeys.github}` }));
    expect(error.code).toBe("E_SECURITY_BLOCKED");
    expect(memories.list()[0]?.content).toBe("Deploy token lives in the CI secrets.");
  });

  it("saves ordinary notes with paths, identifiers and ids", async () => {
    const notes = [
      "Tools live in packages/core/src/tools/builtin/todoWrite and each has a .md beside it.",
      "SessionTodoListImplementsTodoList2 and getUserProfileByIdAndTenantV2OrThrow are the entry points.",
      "Memory 0197a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b replaced the old note; the API token is in 1Password.",
    ];
    for (const content of notes) expect((await call({ action: "add", content })).ok).toBe(true);
    expect(memories.list().map((memory) => memory.content)).toEqual(notes);
  });

  it("applies the book's redaction", async () => {
    const redacting = new SqliteMemoryBook({
      db: storeBed.open().db,
      projectRoot: bed.projectRoot,
      redact: (text) => text.replaceAll("corp.internal", "[redacted]"),
    });
    await call(
      { action: "add", content: "The wiki is at wiki.corp.internal" },
      { ...context, memories: redacting },
    );
    expect(memories.list()[0]?.content).toBe("The wiki is at wiki.[redacted]");
  });

  it("fails clearly where there are no memories", async () => {
    expect(errorOf(await call({ action: "add", content: "x" }, bed.context()))).toMatchObject({
      code: "E_TOOL_EXECUTION",
      message: "Memories are not available here.",
    });
  });

  it("checks that each action has what it needs", () => {
    const problems = (args: unknown) => {
      const validated = registry.validate("update_memory", JSON.stringify(args));
      return validated.ok ? "" : validated.error.message.split("\nExpected schema")[0];
    };
    expect(problems({ action: "add" })).toContain("content: add needs content");
    expect(problems({ action: "update", content: "x" })).toContain("id: update needs the id of the memory");
    expect(problems({ action: "update", id: "m1" })).toContain("content: update needs content");
    expect(problems({ action: "delete" })).toContain("id: delete needs the id of the memory");
    expect(problems({ action: "delete", id: "m1" })).toBe("");
    expect(problems({ action: "add", content: "   " })).not.toBe("");
    expect(problems({ action: "add", content: "x".repeat(1001) })).not.toBe("");
    expect(problems({ action: "add", content: "x", scope: "team" })).not.toBe("");
  });
});
