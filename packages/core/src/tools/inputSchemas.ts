import { readFileSync } from "node:fs";
import { z } from "zod";
import { assetUrl } from "../assetPath.js";

/**
 * JSON Schemas by the zod schema they were made from, for the whole process: every session of
 * `lathe serve` holds registries of the same built-in tools.
 */
const derived = new WeakMap<z.ZodType, Record<string, unknown>>();

/** The built-in tools' schemas, derived at build time (scripts/tool-schemas.mjs); absent from src/. */
let precomputed: Record<string, Record<string, unknown>> | undefined;

/** Each built-in tool's argument schema, with the name of its tool. */
const builtinSchemas = new WeakMap<z.ZodType, string>();

/**
 * A built-in tool's argument schema, built the first time arguments are checked against it rather
 * than when the module loads: most tools are never called in a run, and every schema built at load
 * is dozens of objects the start-up image must hold and read back at each start. The model is
 * shown the JSON Schema the build derived for `name` (scripts/tool-schemas.mjs), so offering the
 * tool does not build it either.
 */
export function builtinToolSchema<Schema extends z.ZodType>(
  name: string,
  build: () => Schema,
): z.ZodLazy<Schema> {
  const schema = z.lazy(build);
  builtinSchemas.set(schema, name);
  return schema;
}

/** The JSON Schema of what the model sends: fields with defaults are optional there. */
export function deriveInputSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...plain } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return plain;
}

/** Whether `schema` is the built-in tool `name`'s own (made by `builtinToolSchema`). */
export function isBuiltinToolSchema(name: string, schema: z.ZodType): boolean {
  return builtinSchemas.get(schema) === name;
}

/**
 * The JSON Schema of a tool's arguments: the build's copy for a built-in tool's own schema (another
 * tool under a built-in's name gets its own), else derived once.
 */
export function inputSchemaFor(name: string, schema: z.ZodType): Record<string, unknown> {
  const cached = derived.get(schema);
  if (cached !== undefined) return cached;
  const built = isBuiltinToolSchema(name, schema) ? precomputedSchemas()[name] : undefined;
  const made = built ?? deriveInputSchema(schema);
  derived.set(schema, made);
  return made;
}

function precomputedSchemas(): Record<string, Record<string, unknown>> {
  if (precomputed !== undefined) return precomputed;
  try {
    precomputed = JSON.parse(readFileSync(assetUrl("tools/toolInputSchemas.json"), "utf8"));
  } catch {
    precomputed = {};
  }
  return precomputed ?? {};
}
