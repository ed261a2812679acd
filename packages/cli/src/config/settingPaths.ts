import { z } from "zod";

type Json = unknown;

function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `context.compaction.threshold` → its segments; empty segments make no key. */
export function keySegments(key: string): string[] | undefined {
  const segments = key.split(".");
  return segments.every((segment) => segment.trim() !== "") ? segments : undefined;
}

/**
 * Whether the schema has a place at these segments: an object's field, any key of a record,
 * anything below a field the schema leaves open (`permissions`). Lists are set whole.
 */
export function schemaHasPath(schema: z.ZodType, segments: readonly string[]): boolean {
  const [head, ...rest] = segments;
  if (head === undefined) return true;
  const inner = unwrapped(schema);
  if (inner instanceof z.ZodUnknown || inner instanceof z.ZodAny) return true;
  if (inner instanceof z.ZodObject) {
    const field = (inner.shape as Record<string, z.ZodType>)[head];
    return field !== undefined && schemaHasPath(field, rest);
  }
  if (inner instanceof z.ZodRecord) return schemaHasPath(inner.valueType as z.ZodType, rest);
  if (inner instanceof z.ZodUnion) {
    return (inner.options as readonly z.ZodType[]).some((option) => schemaHasPath(option, segments));
  }
  return false;
}

/** The schema under optional, default, nullable and pipes, where its shape is. */
function unwrapped(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    return unwrapped(schema.unwrap() as z.ZodType);
  }
  if (schema instanceof z.ZodPipe) return unwrapped(schema.in as z.ZodType);
  return schema;
}

export function valueAt(tree: Json, segments: readonly string[]): Json {
  let node = tree;
  for (const segment of segments) {
    if (!isRecord(node)) return undefined;
    node = node[segment];
  }
  return node;
}

/** A copy of the tree with the value put at the segments, objects made on the way. */
export function withValueAt(
  tree: Record<string, Json>,
  segments: readonly string[],
  value: Json,
): Record<string, Json> {
  const [head, ...rest] = segments;
  if (head === undefined) return tree;
  const current = tree[head];
  return {
    ...tree,
    [head]: rest.length === 0 ? value : withValueAt(isRecord(current) ? current : {}, rest, value),
  };
}

/** A copy without the value at the segments; the objects that held it stay, even when empty. */
export function withoutValueAt(
  tree: Record<string, Json>,
  segments: readonly string[],
): Record<string, Json> {
  const [head, ...rest] = segments;
  if (head === undefined) return tree;
  if (rest.length === 0) {
    const { [head]: _removed, ...kept } = tree;
    return kept;
  }
  const inner = tree[head];
  return isRecord(inner) ? { ...tree, [head]: withoutValueAt(inner, rest) } : tree;
}

/** Every leaf of a settings tree by its dotted key; arrays are leaves, as they are set whole. */
export function leaves(tree: Json, prefix: readonly string[] = []): { key: string; value: Json }[] {
  if (!isRecord(tree) || (prefix.length > 0 && Object.keys(tree).length === 0)) {
    return prefix.length === 0 ? [] : [{ key: prefix.join("."), value: tree }];
  }
  return Object.entries(tree).flatMap(([key, value]) => leaves(value, [...prefix, key]));
}

/** VALUE as JSON when it parses as JSON, else the text itself: `25` is a number, `gpt-4.1` a string. */
export function parseSettingValue(text: string): Json {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
