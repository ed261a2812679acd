// Writes packages/core/dist/tools/toolInputSchemas.json: the JSON Schema of every built-in tool's
// arguments, as the registry would derive it from the tool's zod schema. Deriving them costs
// `lathe -p` ~10–20 ms before its first request; the built engine reads this file instead
// (tools/precomputedSchemas.ts). Made from the build's own output, so it never disagrees with it.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dist = new URL("../packages/core/dist/", import.meta.url);
const core = await import(new URL("index.js", dist).href);
const tools = [
  ...core.builtinTools(),
  core.createWebSearchTool(() => ({})),
  core.createWebFetchTool(() => ({})),
  core.createBrowserUseTool(() => ({}), new core.BrowserSessions()),
  core.createGenerateImageTool(() => undefined),
];
const schemas = Object.fromEntries(tools.map((tool) => [tool.name, core.deriveInputSchema(tool.schema)]));
writeFileSync(fileURLToPath(new URL("tools/toolInputSchemas.json", dist)), `${JSON.stringify(schemas)}\n`);
