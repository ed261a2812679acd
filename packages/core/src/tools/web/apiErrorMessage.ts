/**
 * The complaint in a web API's error answer, on one line: APIs put it in `error.message`,
 * `message`, `detail` or `error`; anything else is quoted from its start, tags dropped. Shared by
 * the search providers and the image providers, which all report a refusal in the API's own words.
 */
export function apiErrorMessage(body: string, maxChars: number): string {
  let message: string | undefined;
  try {
    message = messageOf(JSON.parse(body));
  } catch {
    // Not JSON: the start of the body is the best there is.
  }
  return oneLine(message ?? body.replace(/<[^>]*>/g, " ")).slice(0, maxChars);
}

function messageOf(json: unknown): string | undefined {
  if (typeof json === "string") return json;
  if (typeof json !== "object" || json === null) return undefined;
  const record = json as Record<string, unknown>;
  for (const value of [record.error, record.message, record.detail]) {
    if (typeof value === "string") return value;
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const nested = (value as Record<string, unknown>).message;
      if (typeof nested === "string") return nested;
    }
  }
  // Validation errors (FastAPI, as the Stable Diffusion WebUI sends them) come as a list.
  if (Array.isArray(record.detail)) return JSON.stringify(record.detail);
  return undefined;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
