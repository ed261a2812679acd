export { expandCustomCommand } from "./commandExpansion.js";
export { type CustomCommand, type LoadedCommands, loadCustomCommands } from "./customCommands.js";
