import { setFlagsFromString } from "node:v8";

/**
 * Keeps WebAssembly on V8's baseline compiler for the rest of this process. Once the tree-sitter
 * bash grammar (command analysis) is hot, after a hundred or so commands in one process or as
 * thirty `lathe serve` sessions start, optimising it takes 200–500 MB of compiler memory for a
 * second (bench/server). Baseline code parses a command faster still; project files for the code
 * index parse about 2.5 times slower, in the background. V8 reads these flags as it compiles, so
 * this runs before any grammar is loaded.
 */
export function keepWasmOnBaselineCompiler(): void {
  // Dynamic tiering alone off means eager optimisation, so both flags go together.
  setFlagsFromString("--no-wasm-tier-up");
  setFlagsFromString("--no-wasm-dynamic-tiering");
}
