import { readFileSync } from "node:fs";
import { assetUrl } from "../assetPath.js";

/**
 * Who Lathe says it is in `initialize`. The version is core's own: its package.json is just above
 * src/ and dist/ alike.
 */
export const clientInfo = {
  name: "lathe",
  version: (JSON.parse(readFileSync(assetUrl("../package.json"), "utf8")) as { version: string }).version,
};
