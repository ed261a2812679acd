// Builds `lathe`'s start-up snapshot: the whole command bundled into one script, which Node runs
// once here (`--build-snapshot`) and saves as a heap image, dist/lathe.blob. bin/lathe starts
// Node from that image instead of loading, compiling and evaluating a few hundred modules and
// building every zod schema on each start. The image fits only the Node binary that made it:
// dist/lathe.blob.node names that binary (size, modification time, path) and the folder the
// command was built in, and bin/lathe uses the image only for that binary, from that folder.
import { execFile, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { build } from "rolldown";
import { parseAst } from "rolldown/parseAst";

const dist = fileURLToPath(new URL("../packages/cli/dist/", import.meta.url));
const script = join(dist, "lathe.snapshot.cjs");
const blob = join(dist, "lathe.blob");
const stamp = join(dist, "lathe.blob.node");
const prelude = readFileSync(fileURLToPath(new URL("./snapshot-prelude.cjs", import.meta.url)), "utf8");

// Each module keeps its own location: prompt texts, package.json files, grammars and wasm are
// found beside the module that names them, as they are when the modules load one by one.
const ownLocation = {
  name: "own-location",
  transform(code, id) {
    if (!id.startsWith("/")) return null;
    let out = code;
    if (out.includes("import.meta")) {
      out = out
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(id).href))
        .replaceAll("import.meta.dirname", JSON.stringify(join(id, "..")))
        .replaceAll("import.meta.filename", JSON.stringify(id));
    }
    if (!/\.(m?ts|mjs)$/.test(id) && /\b__dirname\b|\b__filename\b/.test(out)) {
      out = out
        .replace(/\b__dirname\b/g, JSON.stringify(join(id, "..")))
        .replace(/\b__filename\b/g, JSON.stringify(id));
    }
    return out === code ? null : { code: out };
  },
};

// A snapshot holds no dynamic import() callback. Dynamic imports the bundle resolves itself are
// inlined; the others (built-in modules, playwright-core, computed file URLs) load through the
// prelude's import at run time.
const external = ["playwright-core"];
const runtimeImports = {
  name: "runtime-imports",
  transform(code, id) {
    if (!code.includes("import(")) return null;
    const edits = [];
    walk(parseAst(code, { lang: /\.ts$/.test(id) ? "ts" : "js" }), (node) => {
      if (node.type !== "ImportExpression") return;
      const source = node.source;
      const literal =
        source.type === "Literal" && typeof source.value === "string" ? source.value : undefined;
      if (literal !== undefined && !isBuiltin(literal) && !external.includes(literal)) return;
      if (code.slice(node.start, node.start + 6) !== "import")
        throw new Error(`${id}: cannot place import() at ${node.start}`);
      edits.push(node.start);
    });
    if (edits.length === 0) return null;
    let out = code;
    for (const start of edits.sort((a, b) => b - a))
      out = `${out.slice(0, start)}__snapshotLoading.import${out.slice(start + 6)}`;
    return { code: out };
  },
};

function walk(node, visit) {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (typeof node.type === "string") visit(node);
  for (const [key, value] of Object.entries(node)) if (key !== "parent") walk(value, visit);
}

// The AI SDK's provider utilities build a Headers for every request, and the first touch of the
// global Headers loads all of Node's fetch (undici, node:http2…): tens of milliseconds at every
// start. Model requests go out over node:http (core's llm/transport), so in the snapshot these
// utilities get core's plain Headers under the same name.
const plainHeaders = {
  name: "plain-headers",
  transform(code, id) {
    if (!id.endsWith("/node_modules/@ai-sdk/provider-utils/dist/index.mjs")) return null;
    if (!code.includes("new Headers("))
      throw new Error(`${id} no longer builds a Headers: check this transform`);
    return { code: `import { PlainHeaders as Headers } from "@lathe/core";\n${code}` };
  },
};

// node:http's parser pool, node:tls and node:sqlite hold native handles a snapshot cannot keep:
// the bundle gets stand-ins that load them on first use. Their keys are this Node's, the one
// that builds the snapshot and later starts from it.
const deferredBuiltins = ["http", "https", "sqlite", "tls"];
const snapshotLoading = {
  name: "snapshot-loading",
  renderChunk(code) {
    let out = code
      .replaceAll('require("node:module")', "__snapshotLoading.moduleStandIn")
      .replaceAll('require("module")', "__snapshotLoading.moduleStandIn");
    for (const name of deferredBuiltins) {
      const keys = JSON.stringify(Object.keys(process.getBuiltinModule(`node:${name}`)));
      const standIn = `__snapshotLoading.deferredBuiltin("node:${name}", ${keys})`;
      out = out.replaceAll(`require("node:${name}")`, standIn).replaceAll(`require("${name}")`, standIn);
    }
    // The packages the bundled ones load themselves at run time (optional ones: ws's bufferutil).
    out = out.replace(/(?<![.\w$`"'])require\((?!"node:)/g, "__snapshotLoading.require(");
    return `${prelude}${out}`;
  },
};

rmSync(script, { force: true });
rmSync(blob, { force: true });
rmSync(stamp, { force: true });
await build({
  input: join(dist, "snapshotEntry.js"),
  platform: "node",
  external,
  plugins: [ownLocation, runtimeImports, plainHeaders, snapshotLoading],
  output: {
    file: script,
    format: "cjs",
    codeSplitting: false,
    // One-byte source (no character outside Latin-1) and less of it: the snapshot keeps it all.
    charset: "ascii",
    minify: true,
    keepNames: true,
    comments: { legal: false },
  },
  logLevel: "silent",
});
// Node's snapshot keeps the bytecode of the functions compiled when it is taken only when it also
// keeps the code cache of Node's own modules (6 MB read at every start, which pays for itself only
// in part: node:http's modules load from it). The bytecode is what matters: a first image is built,
// started once as a user would (a training run), and the positions of the functions that run
// compiled go to lathe.hot.txt; the final image compiles those ahead (src/hotFunctions.ts).
const hotList = join(dist, "lathe.hot.txt");
rmSync(hotList, { force: true });
buildImage();
const hot = await hotFunctionPositions();
if (typeof hot === "string") {
  console.warn(`build-snapshot: no training run (${hot}); every start compiles what it runs`);
} else {
  writeFileSync(hotList, `${[...hot].join("\n")}\n`);
  buildImage();
  rmSync(hotList);
}

function buildImage() {
  const config = join(dist, "lathe.snapshot.json");
  writeFileSync(config, JSON.stringify({ builder: script }));
  // --no-warnings: Node warns about each built-in module whose snapshot support it has not verified.
  // --hash-seed: lathe starts from the image without rehashing it (bin/lathe.js), so the seed baked
  // in here is the one every run uses: drawn at random for each build, never V8's or Node's default.
  const hashSeed = randomBytes(6).readUIntBE(0, 6) + 1;
  execFileSync(
    process.execPath,
    ["--no-warnings", `--hash-seed=${hashSeed}`, "--snapshot-blob", blob, "--build-snapshot-config", config],
    { stdio: "inherit" },
  );
  rmSync(config);
}

/**
 * Runs `lathe -p` twice from the image just built (a new `$LATHE_HOME`, then the same one again)
 * against the scripted model server, in a throwaway home and project, with V8 logging each function
 * it compiles: the start offsets of the bundle's functions compiled in either run.
 */
async function hotFunctionPositions() {
  const { fakeKeys, startFakeLlm } = await import("../packages/testkit/dist/index.js");
  const scratch = mkdtempSync(join(tmpdir(), "lathe-training-"));
  const server = await startFakeLlm({ script: { turns: [{ text: "Done." }, { text: "Done again." }] } });
  try {
    const project = join(scratch, "project");
    mkdirSync(project);
    writeFileSync(join(project, "README.md"), "# A project\n");
    const positions = new Set();
    for (const pass of [1, 2]) {
      const log = join(scratch, `v8-${pass}.log`);
      // Asynchronously: the scripted server answers from this process.
      const child = await run(
        process.execPath,
        [
          "--max-semi-space-size=8",
          "--no-rehash-snapshot",
          "--snapshot-blob",
          blob,
          "--log-function-events",
          `--logfile=${log}`,
          "--no-logfile-per-isolate",
          "--",
          "-p",
          "Describe this project.",
          "--cwd",
          project,
          "--model",
          "openai:gpt-4.1",
          "--base-url",
          `${server.url}/v1`,
        ],
        {
          env: {
            PATH: process.env.PATH,
            HOME: scratch,
            LATHE_HOME: join(scratch, "lathe-home"),
            OPENAI_API_KEY: fakeKeys.openai,
          },
          encoding: "utf8",
          timeout: 60_000,
        },
      );
      if (!child.ok) return child.reason;
      for (const position of compiledInBundle(readFileSync(log, "utf8"))) positions.add(position);
    }
    return positions.size > 0 ? positions : "V8's log named no function of the bundle";
  } finally {
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Runs a command to its end: ok, or why it failed. */
async function run(program, args, options) {
  try {
    await promisify(execFile)(program, args, options);
    return { ok: true };
  } catch (error) {
    return {
      ok: false,
      reason: `lathe -p failed: ${String(error.stderr ?? error.message)
        .trim()
        .slice(0, 500)}`,
    };
  }
}

/** The start offsets of the bundle's functions in a V8 `--log-function-events` log that were compiled. */
function compiledInBundle(log) {
  const lines = log.split("\n").map((line) => line.split(","));
  const scripts = new Set(lines.filter((f) => f[0] === "script-details" && f[2] === script).map((f) => f[1]));
  return lines
    .filter((f) => f[0] === "function" && f[1] === "interpreter" && scripts.has(f[2]))
    .map((f) => Number(f[3]));
}

const node = realpathSync(process.execPath);
const { size, mtime } = statSync(node);
// The second line is where the command lives: the bundle holds its modules' paths.
const bin = realpathSync(fileURLToPath(new URL("../packages/cli/bin", import.meta.url)));
writeFileSync(stamp, `${size} ${Math.floor(mtime.getTime() / 1000)} ${node}\n${bin}\n`);
