// Bundles the terminal UI (packages/cli/dist/terminalUi/mountTerminalApp.js) with Ink, React and
// the rest of what it draws with into one module, dist/terminalUi/terminalApp.bundle.js, which the
// interactive `lathe` loads once it has its session.
//
// One file loads in a fraction of the time Ink's ~150 small modules take one by one. And it has no
// top-level await, so `lathe` started from its start-up image (scripts/build-snapshot.mjs) can load
// it with `require` — the image has no module loader for `import` — instead of starting again
// without the image. Ink's two awaits are taken out here: yoga-layout's, which compiles the layout
// engine's WebAssembly as it loads (the bundle exports `layoutEngineReady` instead, awaited before
// the first frame), and those of Ink's development-only code (React DevTools), which runs only with
// DEV=true and a package Lathe does not ship.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const dist = fileURLToPath(new URL("../packages/cli/dist/terminalUi/", import.meta.url));
// The bundle imports nothing at run time. A module the start-up image loads finds its imports on
// the disk, not in the image: the engine's packages and zod would load a second time. Our protocol's
// few constants the UI uses are inlined (the package has no side effects, so nothing else comes);
// an import of the engine or zod left in the bundle fails the build, to be handed over by
// terminalChat.ts instead (the protocol's modules import zod, so it is resolved, then dropped).
const loadedByTheCommand = /^(@lathe\/(core|server|testkit)|zod)(\/|$)/;

const entry = "\0terminal-app-entry";
const layoutEngine = "\0layout-engine";

const yogaSource = dirname(createRequire(import.meta.url).resolve("yoga-layout/load"));
const yogaModule = (path) => JSON.stringify(join(yogaSource, path));
const yogaBinary = join(yogaSource, "../binaries/yoga-wasm-base64-esm.js");

// Yoga's WebAssembly, written beside the bundle: its loader would otherwise fetch the copy it holds
// as a data: URL, which loads Node's whole fetch implementation for it.
const yogaWasm = () => {
  const dataUrl = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/.exec(
    readFileSync(yogaBinary, "utf8"),
  );
  if (dataUrl === null) throw new Error("yoga-layout no longer holds its WebAssembly as a data: URL");
  writeFileSync(join(dist, "yoga.wasm"), Buffer.from(dataUrl[1], "base64"));
};

/**
 * Yoga as Ink imports it (`import Yoga from "yoga-layout"`), filled in once its WebAssembly is
 * compiled. Its constants (EDGE_TOP…), which Ink reads as its modules load, are there from the start.
 */
const layoutEngineModule = `
import { readFileSync } from "node:fs";
import loadYogaBinary from ${JSON.stringify(yogaBinary)};
import wrapAssembly from ${yogaModule("wrapAssembly.js")};
import constants from ${yogaModule("generated/YGEnums.js")};
let loaded;
const wasmBinary = readFileSync(new URL("./yoga.wasm", import.meta.url));
export const layoutEngineReady = loadYogaBinary({ wasmBinary }).then((yoga) => { loaded = wrapAssembly(yoga); });
export default new Proxy({}, {
  get(_target, key) {
    if (loaded !== undefined) return loaded[key];
    if (Object.hasOwn(constants, key)) return constants[key];
    throw new Error("the layout engine is used before layoutEngineReady");
  },
});
export * from ${yogaModule("generated/YGEnums.js")};
`;

// Ink's development-only code (DevTools, its package.json read for them) runs under DEV=true, with
// top-level awaits: the condition is made false, and the bundler drops the code with its awaits.
const developmentOnly = /process\.env\['DEV'\] === 'true'/g;

const withoutTopLevelAwait = {
  name: "without-top-level-await",
  resolveId(specifier, importer) {
    if (specifier === entry || specifier === layoutEngine) return specifier;
    if (specifier === "yoga-layout" && importer !== layoutEngine) return layoutEngine;
    return null;
  },
  load(id) {
    if (id === entry)
      return `export * from ${JSON.stringify(join(dist, "mountTerminalApp.js"))};\nexport { layoutEngineReady } from "${layoutEngine}";\n`;
    if (id === layoutEngine) return layoutEngineModule;
    return null;
  },
  transform(code, id) {
    if (!id.endsWith("/ink/build/reconciler.js")) return null;
    if (!developmentOnly.test(code))
      throw new Error("Ink's development-only code has changed: review scripts/bundle-terminal-ui.mjs");
    return { code: code.replace(developmentOnly, "false") };
  },
};

for (const name of readdirSync(dist)) {
  if (name === "terminalApp.bundle.js" || name.startsWith("terminalApp.chunk-")) rmSync(join(dist, name));
}
yogaWasm();
await build({
  input: entry,
  platform: "node",
  external: (specifier) => loadedByTheCommand.test(specifier),
  plugins: [withoutTopLevelAwait],
  // React's production build: its development one checks every render, which the user pays for.
  transform: { define: { "process.env.NODE_ENV": JSON.stringify("production") } },
  output: {
    dir: dist,
    format: "esm",
    entryFileNames: "terminalApp.bundle.js",
    codeSplitting: false,
  },
  logLevel: "warn",
});

// Node's own modules are no copies: they come from Node, never from the disk.
const bundled = readFileSync(join(dist, "terminalApp.bundle.js"), "utf8");
const leftImports = [...bundled.matchAll(/^import\b.*? from "([^"]+)";$/gm)]
  .map((found) => found[1])
  .filter((source) => !source.startsWith("node:"));
if (leftImports.length > 0)
  throw new Error(`the terminal UI's bundle still imports ${leftImports.join(", ")}`);
