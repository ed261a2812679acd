import { startupSnapshot } from "node:v8";
import { runLatheCli } from "./latheCli.js";

// The entry of the start-up snapshot (scripts/build-snapshot.mjs): loading this module is what
// the build does once, and the heap it leaves (every module evaluated, every schema built) is
// what `lathe` starts from. The command itself runs only when a user starts it; the launcher
// passes Lathe's arguments after `--`, so they come right after the Node binary in argv.
startupSnapshot.setDeserializeMainFunction(() => {
  void runLatheCli(process.argv.slice(1));
});
