// Copies the non-TypeScript files that live beside the code (prompt texts, catalogs) from each
// package's src/ into dist/, so the built engine reads the same files the tests read.
import { cpSync, existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const assetPattern = /\.(md|json|txt)$/;
// The web UI is bundled by Vite into its own dist/.
for (const pkg of readdirSync("packages").filter((name) => name !== "web")) {
  const src = join("packages", pkg, "src");
  if (!existsSync(src)) continue;
  cpSync(src, join("packages", pkg, "dist"), {
    recursive: true,
    filter: (from) => statSync(from).isDirectory() || assetPattern.test(from),
  });
}
