// Bundles the built engine (packages/core/dist) into one module, dist/core.bundle.js, which is
// what `@lathe/core` exports at run time. Loading ~400 small modules cost `lathe -p` most of its
// start-up; one file loads in a fraction of that. The bundle sits in dist/ beside the files it was
// made from, so the prompt texts and catalogs it reads (see src/assetPath.ts) resolve the same.
//
// Left outside the bundle: our protocol package and zod (shared with the other packages, one copy
// in a process), packages loaded only on first use, and packages that find files of their own
// (grammars, wasm, worker threads). Inlined: the small pure libraries the engine loads at start.
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const dist = fileURLToPath(new URL("../packages/core/dist/", import.meta.url));
const inlined = [
  "@opentelemetry/api",
  "@opentelemetry/core",
  "@opentelemetry/resources",
  "@opentelemetry/sdk-trace",
  "@opentelemetry/semantic-conventions",
  "diff",
  "fdir",
  "ignore",
  "picomatch",
  "tinyglobby",
];
const packageOf = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");
// Package names only: relative paths, absolute paths and a package's own `#imports` are resolved.
const isBare = (specifier) => /^[@a-z]/i.test(specifier);

for (const name of readdirSync(dist)) {
  if (name === "core.bundle.js" || name.startsWith("core.chunk-")) rmSync(join(dist, name));
}
await build({
  input: join(dist, "index.js"),
  platform: "node",
  external: (specifier) => isBare(specifier) && !inlined.includes(packageOf(specifier)),
  output: {
    dir: dist,
    format: "esm",
    entryFileNames: "core.bundle.js",
    // Beside the bundle, never in a subfolder: chunks resolve assets from their own location too.
    chunkFileNames: "core.chunk-[name]-[hash].js",
  },
  logLevel: "warn",
});
