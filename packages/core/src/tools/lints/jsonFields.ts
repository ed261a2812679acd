/** Reading checkers' JSON reports without trusting their shape. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function field(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  return (value as Record<string, unknown>)[key];
}

export function numberField(value: unknown, key: string): number {
  const found = field(value, key);
  return typeof found === "number" ? found : 0;
}
