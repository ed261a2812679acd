import { symlinkSync } from "node:fs";
import path from "node:path";
import { type FakeLlm, startScriptedSession } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";

const repoNodeModules = path.resolve(import.meta.dirname, "../../../../node_modules");

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("edits report the errors they introduce", () => {
  it("appends the new type error to the edit_file result the model reads", async () => {
    const s = await startScriptedSession(
      [
        { tool_calls: [{ name: "read_lints", arguments: {} }] },
        { tool_calls: [{ name: "read_file", arguments: { path: "src/total.ts" } }] },
        {
          tool_calls: [
            {
              name: "edit_file",
              arguments: {
                path: "src/total.ts",
                old_string: "  return a + b;",
                new_string: '  return a + b + "!";',
              },
            },
          ],
        },
        { text: "I introduced a type error; fixing it next." },
      ],
      {
        files: {
          "tsconfig.json": JSON.stringify({
            compilerOptions: { strict: true, noEmit: true, types: [] },
            include: ["src"],
          }),
          "src/total.ts": "export function total(a: number, b: number): number {\n  return a + b;\n}\n",
        },
      },
    );
    server = s.server;
    symlinkSync(repoNodeModules, path.join(s.projectRoot, "node_modules"));
    await s.session.send("make total return a string");
    const results = s.session.messages.flatMap((m) => m.parts).filter((p) => p.type === "tool_result");
    expect(results[0]!.output).toBe("Checked with tsc: no problems found.");
    const edit = results[2]!.output;
    expect(
      edit.endsWith(
        "src/total.ts now has 1 error:\n  2:3 error TS2322: Type 'string' is not assignable to type 'number'. (tsc)",
      ),
    ).toBe(true);
  }, 60_000);
});
