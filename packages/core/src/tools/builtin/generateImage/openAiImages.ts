import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { z } from "zod";
import { guardedFetch } from "../../../policy/networkGuard/index.js";
import { imageGenerationDefaults, type OpenAiImageSettings } from "../../web/imageSettings.js";
import { serviceKey } from "../../web/serviceKey.js";
import type { GeneratedImage, ImageProvider } from "./imageProvider.js";
import { decodeBase64Image, type ImageCall, postJson } from "./imageRequest.js";

const answerSchema = z.object({
  data: z
    .array(
      z.object({
        b64_json: z.string().optional(),
        url: z.string().optional(),
        revised_prompt: z.string().optional(),
      }),
    )
    .min(1),
});

/**
 * An OpenAI-style images endpoint. The key is looked up as the chat models' keys are, under the
 * provider's own name, so an OpenAI key is only ever sent to OpenAI and a compatible server gets
 * its own key, or none: local servers usually need none.
 */
export function openAiImages(
  settings: OpenAiImageSettings,
  latheHome: string,
): { ok: true; provider: ImageProvider } | { ok: false; error: LatheErrorInfo } {
  const official = settings.provider === "openai";
  const baseUrl = settings.baseUrl ?? (official ? imageGenerationDefaults.openAiBaseUrl : undefined);
  if (baseUrl === undefined) {
    const message = "imageGeneration.baseUrl is required for an openai-compatible provider.";
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", message) };
  }
  const envName = official ? "OPENAI_API_KEY" : "OPENAI_COMPATIBLE_API_KEY";
  const key = serviceKey(settings.provider, undefined, [envName], {
    env: settings.env ?? process.env,
    latheHome,
  });
  if (!key.ok && (official || !key.missing)) {
    const message = `Cannot call the images API: ${key.reason}.`;
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", message) };
  }
  const model = settings.model ?? imageGenerationDefaults.model;
  const endpoint = `${baseUrl.replace(/\/+$/, "")}/images/generations`;
  const headers: Record<string, string> = key.ok ? { authorization: `Bearer ${key.key}` } : {};
  const label = official ? "The OpenAI images API" : `The images API at ${baseUrl}`;

  return {
    ok: true,
    provider: {
      label,
      async generate({ prompt, size }, call) {
        // GPT image models always answer in base64 and reject the parameter that asks for it.
        const format = model.startsWith("gpt-image") ? {} : { response_format: "b64_json" };
        const answer = await postJson(endpoint, { model, prompt, size, n: 1, ...format }, headers, call);
        if (!answer.ok) return answer;
        const parsed = answerSchema.safeParse(answer.json);
        const image = parsed.success ? parsed.data.data[0] : undefined;
        if (image === undefined) return malformed(call);
        const revised = image.revised_prompt === undefined ? {} : { revisedPrompt: image.revised_prompt };
        if (image.b64_json !== undefined)
          return { ok: true, bytes: decodeBase64Image(image.b64_json), ...revised };
        if (image.url !== undefined) return download(image.url, call, revised);
        return malformed(call);
      },
    },
  };
}

/** Some compatible servers answer with a link instead of the bytes; it is fetched through the guard too. */
async function download(
  url: string,
  call: ImageCall,
  revised: { revisedPrompt?: string },
): Promise<GeneratedImage> {
  const fetched = await guardedFetch(url, { signal: call.signal }, call.fetchOptions);
  if (!fetched.ok) return fetched;
  if (fetched.response.status < 200 || fetched.response.status > 299) {
    const message = `Downloading the generated image from ${url} failed with HTTP ${fetched.response.status}.`;
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", message) };
  }
  return { ok: true, bytes: fetched.response.body, ...revised };
}

function malformed(call: ImageCall): GeneratedImage {
  const message = `${call.providerLabel} answered without an image (no data[0].b64_json or url).`;
  return { ok: false, error: errorInfo("E_TOOL_EXECUTION", message) };
}
