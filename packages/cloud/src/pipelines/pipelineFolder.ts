import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { PipelineFile } from "./pipelineFiles.js";

export const pipelinesFolder = ".lathe/pipelines";

/** Far above any sensible pipeline; keeps a stray large file from being read whole. */
const maxFileBytes = 64 * 1024;

/** A pipeline file that could not be read, under the name its file gives it. */
export interface UnreadablePipelineFile {
  source: string;
  name: string;
  message: string;
}

/** The `.md` files of the project's pipelines folder, sorted; none when it is missing. Reads no file. */
export async function pipelineFileNames(projectRoot: string): Promise<string[]> {
  const names = await readdir(join(projectRoot, ...pipelinesFolder.split("/"))).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith(".md")).sort();
}

/** Every pipeline file's text, and the files that could not be read (too large, not a file, no permission). */
export async function readPipelineFiles(
  projectRoot: string,
): Promise<{ files: PipelineFile[]; unreadable: UnreadablePipelineFile[] }> {
  const files: PipelineFile[] = [];
  const unreadable: UnreadablePipelineFile[] = [];
  for (const name of await pipelineFileNames(projectRoot)) {
    const source = `${pipelinesFolder}/${name}`;
    const read = await readSmallText(join(projectRoot, ...source.split("/")));
    if (typeof read === "string") files.push({ source, text: read });
    else unreadable.push({ source, name: name.replace(/\.md$/, ""), message: `${source}: ${read.problem}` });
  }
  return { files, unreadable };
}

async function readSmallText(path: string): Promise<string | { problem: string }> {
  try {
    const handle = await open(path);
    try {
      const size = (await handle.stat()).size;
      if (size > maxFileBytes)
        return { problem: `${size} bytes; a pipeline file has at most ${maxFileBytes}` };
      return await handle.readFile("utf8");
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
}
