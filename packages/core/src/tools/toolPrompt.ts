import { readFileSync } from "node:fs";

/** Reads a tool's model-facing description from the markdown file beside its code. */
export function toolPrompt(fileUrl: URL): string {
  return readFileSync(fileUrl, "utf8").trim();
}
