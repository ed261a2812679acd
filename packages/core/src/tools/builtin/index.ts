import type { AnyTool } from "../tool.js";
import { applyPatchTool } from "./applyPatch/applyPatch.js";
import { askUserTool } from "./askUser/askUser.js";
import { codebaseSearchTool } from "./codebaseSearch/codebaseSearch.js";
import { deleteFileTool } from "./deleteFile/deleteFile.js";
import { editFileTool } from "./editFile/editFile.js";
import { fetchRulesTool } from "./fetchRules/fetchRules.js";
import { globSearchTool } from "./globSearch/globSearch.js";
import { listDirectoryTool } from "./listDirectory/listDirectory.js";
import { multiEditTool } from "./multiEdit/multiEdit.js";
import { readFileTool } from "./readFile/readFile.js";
import { readLintsTool } from "./readLints/readLints.js";
import { runTerminalCmdTool } from "./runTerminalCmd/runTerminalCmd.js";
import { searchFilesTool } from "./searchFiles/searchFiles.js";
import { taskTool } from "./task/task.js";
import { terminalKillTool } from "./terminalKill/terminalKill.js";
import { terminalOutputTool } from "./terminalOutput/terminalOutput.js";
import { todoWriteTool } from "./todoWrite/todoWrite.js";
import { updateMemoryTool } from "./updateMemory/updateMemory.js";
import { writeFileTool } from "./writeFile/writeFile.js";

/** The tools every session starts with, in the order they are offered to the model. */
export function builtinTools(): AnyTool[] {
  return [
    readFileTool,
    listDirectoryTool,
    globSearchTool,
    searchFilesTool,
    codebaseSearchTool,
    readLintsTool,
    editFileTool,
    multiEditTool,
    applyPatchTool,
    writeFileTool,
    deleteFileTool,
    runTerminalCmdTool,
    terminalOutputTool,
    terminalKillTool,
    fetchRulesTool,
    todoWriteTool,
    askUserTool,
    updateMemoryTool,
    taskTool,
  ];
}
