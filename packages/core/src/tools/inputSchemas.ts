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

/** The JSON Schema of what the model sends: fields with defaults are optional there. */
export function deriveInputSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...plain } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return plain;
}

/**
 * The JSON Schema of a tool's arguments: the build's copy when it has one for this name with the
 * same fields (a tool of another shape under a built-in's name is derived), else derived once.
 */
export function inputSchemaFor(name: string, schema: z.ZodType): Record<string, unknown> {
  const cached = derived.get(schema);
  if (cached !== undefined) return cached;
  const built = precomputedSchemas()[name];
  const made = built !== undefined && sameFields(built, schema) ? built : deriveInputSchema(schema);
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

function sameFields(built: Record<string, unknown>, schema: z.ZodType): boolean {
  const properties = built.properties;
  const fields = fieldsOf(schema);
  if (fields === undefined || typeof properties !== "object" || properties === null) return false;
  const builtFields = Object.keys(properties);
  return fields.length === builtFields.length && fields.every((field, index) => builtFields[index] === field);
}

/** The fields the model sends: an object's, or those of the object a pipe starts from (browser_use). */
function fieldsOf(schema: z.ZodType): string[] | undefined {
  if (schema instanceof z.ZodPipe) return fieldsOf(schema.in as z.ZodType);
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : undefined;
}
