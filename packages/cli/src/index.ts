export { type CliArgs, parseCliArgs } from "./cliArgs.js";
export { exitCodeFor, exitCodes } from "./exitCodes.js";
