import { readFileSync } from "node:fs";

/**
 * Who Lathe says it is in `initialize`. The version is core's own: its package.json is two levels
 * above this file in src/ and dist/ alike.
 */
export const clientInfo = {
  name: "lathe",
  version: (
    JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
  ).version,
};
