import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { setFlagsFromString, startupSnapshot } from "node:v8";
import { loadProviderPackages } from "@lathe/core";
import { discardRandomPool } from "@lathe/protocol";
import { precompileHotFunctions } from "./hotFunctions.js";
import { runLatheCli } from "./latheCli.js";

// The entry of the start-up snapshot (scripts/build-snapshot.mjs): loading this module is what
// the build does once, and the heap it leaves (every module evaluated, every schema built) is
// what `lathe` starts from. The command itself runs only when a user starts it; the launcher
// passes Lathe's arguments after `--`, so they come right after the Node binary in argv.
startupSnapshot.setDeserializeMainFunction(() => {
  void runLatheCli(process.argv.slice(1));
});

// Loaded now rather than on a user's first request: the provider packages (the builder finishes
// pending work before it takes the heap), and Node's own modules behind web crypto, web streams
// and parseArgs, which it would otherwise compile at every start. Nothing here makes a value a run
// must not share with another (no random bytes, no time, no environment).
void loadProviderPackages();
// Touching each global loads its module; the check keeps the minifier from dropping the touch.
const nodeModulesOfTheFirstRequest = [
  ReadableStream,
  WritableStream,
  TransformStream,
  TextDecoderStream,
  parseArgs,
];
if (nodeModulesOfTheFirstRequest.some((loaded) => typeof loaded !== "function"))
  throw new Error("Node lacks web streams");
// The global performance loads node:perf_hooks at its first touch; Node resets its time origin
// when a process starts from the snapshot, so performance.now() still counts from that start.
if (typeof performance.timeOrigin !== "number") throw new Error("Node lacks performance");
// Web crypto's argument checks load at the first call; the bytes drawn here are thrown away.
globalThis.crypto.getRandomValues(new Uint8Array(1));

// Whatever drew ids while the snapshot was built, no process started from it may reuse them.
startupSnapshot.addSerializeCallback(discardRandomPool);

// Most code that ran while the modules loaded (their top-level code, the building of schemas) will
// not run again, yet its bytecode would be saved and read back at every start. V8 drops the
// bytecode of functions that have not run for a few full collections, and compiles them again
// from their source if they ever do run. Only V8's own intrinsic asks for a full collection from
// inside the builder, so it is allowed just long enough to compile the call.
startupSnapshot.addSerializeCallback(() => {
  setFlagsFromString("--allow-natives-syntax");
  const collectGarbage = new Function("%CollectGarbage(null)");
  setFlagsFromString("--no-allow-natives-syntax");
  for (let i = 0; i < 8; i++) collectGarbage();
});

// Then, after those collections, the functions a run calls first are compiled into the image: the
// build writes their positions in the bundle here after a training run (scripts/build-snapshot.mjs).
const hotFunctionList = new URL("lathe.hot.txt", import.meta.url);
startupSnapshot.addSerializeCallback(() => {
  if (!existsSync(hotFunctionList)) return;
  const positions = new Set(readFileSync(hotFunctionList, "utf8").split("\n").filter(Boolean).map(Number));
  const outcome = precompileHotFunctions(positions, runLatheCli);
  process.stdout.write(
    typeof outcome === "number"
      ? `start-up image: ${outcome} functions compiled ahead\n`
      : `start-up image: no function compiled ahead (${outcome})\n`,
  );
});
