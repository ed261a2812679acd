import { errorInfo } from "@lathe/protocol";
import { z } from "zod";
import { imageGenerationDefaults, type SdWebUiSettings } from "../../web/imageSettings.js";
import type { ImageProvider } from "./imageProvider.js";
import { decodeBase64Image, postJson } from "./imageRequest.js";

const answerSchema = z.object({ images: z.array(z.string()).min(1) });

/** The Stable Diffusion WebUI's txt2img API (`POST /sdapi/v1/txt2img`), answering with base64 PNGs. */
export function sdWebUi(settings: SdWebUiSettings): ImageProvider {
  const endpoint = `${settings.url.replace(/\/+$/, "")}/sdapi/v1/txt2img`;
  return {
    label: "The Stable Diffusion WebUI",
    async generate({ prompt, size }, call) {
      const [width, height] = size.split("x").map(Number);
      const request = {
        prompt,
        negative_prompt: settings.negativePrompt ?? "",
        width,
        height,
        steps: settings.steps ?? imageGenerationDefaults.steps,
        batch_size: 1,
        n_iter: 1,
      };
      const answer = await postJson(endpoint, request, {}, call);
      if (!answer.ok) return answer;
      const parsed = answerSchema.safeParse(answer.json);
      const image = parsed.success ? parsed.data.images[0] : undefined;
      if (image === undefined) {
        const message = `${call.providerLabel} answered without an image (no images[0]).`;
        return { ok: false, error: errorInfo("E_TOOL_EXECUTION", message) };
      }
      return { ok: true, bytes: decodeBase64Image(image) };
    },
  };
}
