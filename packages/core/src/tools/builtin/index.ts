import type { AnyTool } from "../tool.js";
import { readFileTool } from "./readFile/readFile.js";
import { runTerminalCmdTool } from "./runTerminalCmd/runTerminalCmd.js";
import { writeFileTool } from "./writeFile/writeFile.js";

/** The tools every session starts with, in the order they are offered to the model. */
export function builtinTools(): AnyTool[] {
  return [readFileTool, writeFileTool, runTerminalCmdTool];
}
