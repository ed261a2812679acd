import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editFileTool } from "../../src/tools/builtin/editFile/editFile.js";
import { readFileTool } from "../../src/tools/builtin/readFile/readFile.js";
import { writeFileTool } from "../../src/tools/builtin/writeFile/writeFile.js";
import type { EditorBuffers } from "../../src/tools/editorBuffers.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

const inProject = (relative: string) => path.join(bed.projectRoot, relative);

/**
 * An editor with one open buffer per path. `saves` says whether a write also reaches the disk,
 * as Zed's does; an editor that only changes its buffer leaves the disk to Lathe.
 */
function editor(buffers: Record<string, string>, saves: boolean) {
  const writes: { path: string; text: string }[] = [];
  const buffersOf = new Map(Object.entries(buffers).map(([relative, text]) => [inProject(relative), text]));
  const editorBuffers: EditorBuffers = {
    async read(absPath) {
      return buffersOf.get(absPath);
    },
    async write(absPath, text) {
      writes.push({ path: absPath, text });
      buffersOf.set(absPath, text);
      if (saves) writeFileSync(absPath, text);
      return { ok: true };
    },
  };
  return { writes, editorBuffers };
}

describe("file tools in an editor that takes writes", () => {
  for (const saves of [true, false]) {
    it(`writes through the editor, and the disk holds the text (editor ${saves ? "saves" : "does not save"})`, async () => {
      const { writes, editorBuffers } = editor({}, saves);
      const result = await writeFileTool.execute(
        { path: "notes.md", contents: "hello\n" },
        bed.context({ editorBuffers }),
      );
      expect(outputOf(result)).toBe("Created notes.md (1 line, 6 bytes).");
      expect(writes).toEqual([{ path: inProject("notes.md"), text: "hello\n" }]);
      expect(readFileSync(inProject("notes.md"), "utf8")).toBe("hello\n");
    });
  }

  it("edits the editor's text, so unsaved typing is kept, and saves the result", async () => {
    writeFileSync(inProject("a.ts"), "const a = 1;\n");
    const { writes, editorBuffers } = editor({ "a.ts": "const a = 1;\n// typed, not saved\n" }, false);
    const context = bed.context({ editorBuffers });
    outputOf(await readFileTool.execute({ path: "a.ts" }, context));
    outputOf(
      await editFileTool.execute(
        { path: "a.ts", old_string: "const a = 1;", new_string: "const a = 2;" },
        context,
      ),
    );
    expect(writes.map((write) => write.text)).toEqual(["const a = 2;\n// typed, not saved\n"]);
    expect(readFileSync(inProject("a.ts"), "utf8")).toBe("const a = 2;\n// typed, not saved\n");
  });

  it("edits the disk's text in an editor that only shares reads", async () => {
    writeFileSync(inProject("a.ts"), "const a = 1;\n");
    const { editorBuffers } = editor({ "a.ts": "const a = 1;\n// typed\n" }, false);
    const context = bed.context({ editorBuffers: { read: editorBuffers.read } });
    outputOf(await readFileTool.execute({ path: "a.ts" }, context));
    outputOf(
      await editFileTool.execute(
        { path: "a.ts", old_string: "const a = 1;", new_string: "const a = 2;" },
        context,
      ),
    );
    expect(readFileSync(inProject("a.ts"), "utf8")).toBe("const a = 2;\n");
  });

  it("fails the call, leaving the disk alone, when the editor refuses the write", async () => {
    writeFileSync(inProject("a.ts"), "const a = 1;\n");
    const refusing: EditorBuffers = {
      async read() {
        return undefined;
      },
      async write() {
        return { ok: false, message: "writes are not allowed here" };
      },
    };
    const context = bed.context({ editorBuffers: refusing });
    outputOf(await readFileTool.execute({ path: "a.ts" }, context));
    const result = await writeFileTool.execute({ path: "a.ts", contents: "changed\n" }, context);
    expect(errorOf(result)).toMatchObject({
      code: "E_TOOL_EXECUTION",
      message: "The editor did not write a.ts: writes are not allowed here",
    });
    expect(readFileSync(inProject("a.ts"), "utf8")).toBe("const a = 1;\n");
  });
});
