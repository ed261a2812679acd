import { readFileSync } from "node:fs";

/** The version of the `lathe` package, from its manifest beside the built code. */
export const cliVersion: string = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
).version;
