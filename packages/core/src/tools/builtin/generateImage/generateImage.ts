import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { writeProjectFile } from "../../../fileSystem/projectFiles.js";
import { sha256Hex } from "../../fileReadLedger.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";
import {
  type ImageGenerationSettings,
  imageGenerationDefaults,
  imageSizeSchema,
} from "../../web/imageSettings.js";
import { imageFormatNames, sniffImageType, withMatchingExtension } from "./imageFormat.js";
import type { ImageProvider } from "./imageProvider.js";
import { imageTarget } from "./imageTarget.js";
import { openAiImages } from "./openAiImages.js";
import { sdWebUi } from "./sdWebUi.js";

/** Beyond the provider's own limit: decoding and writing the file. */
const toolGraceMs = 10_000;

const generateImageSchema = builtinToolSchema("generate_image", () =>
  z.object({
    prompt: z.string().min(1).max(4000),
    path: z.string().min(1).describe("Where to save it in the project: .png, .jpg, .jpeg or .webp."),
    size: imageSizeSchema
      .optional()
      .describe(`Width x height in pixels (default ${imageGenerationDefaults.size}).`),
    overwrite: z.boolean().optional(),
  }),
);

type GenerateImageArgs = z.infer<typeof generateImageSchema>;

export const noImageProviderMessage =
  "no image provider configured: set imageGeneration in settings.json " +
  '(e.g. {"imageGeneration": {"provider": "openai", "model": "gpt-image-1"}} with OPENAI_API_KEY set, ' +
  'or {"imageGeneration": {"provider": "sd-webui", "url": "http://127.0.0.1:7860"}}).';

/**
 * `generate_image`, off until configured (SPEC §4). The integrator registers
 * `createGenerateImageTool(() => imageGenerationSettingsFrom(settings.imageGeneration, env))`.
 */
export function createGenerateImageTool(settings: () => ImageGenerationSettings | undefined) {
  return defineTool({
    name: "generate_image",
    description: toolPrompt(assetUrl("tools/builtin/generateImage/generateImage.md")),
    schema: generateImageSchema,
    kind: "edit",
    risk: () => "medium",
    get timeoutMs() {
      return (settings()?.timeoutMs ?? imageGenerationDefaults.timeoutMs) + toolGraceMs;
    },
    truncation: "head",
    available: () => settings() !== undefined,
    execute: (args, ctx) => generateImage(args, ctx, settings()),
  });
}

async function generateImage(
  args: GenerateImageArgs,
  ctx: ToolContext,
  settings: ImageGenerationSettings | undefined,
): Promise<ToolResult> {
  if (settings === undefined) return failure(errorInfo("E_TOOL_EXECUTION", noImageProviderMessage));
  const overwrite = args.overwrite === true;
  // Checked before the provider is paid for an image that could not be saved.
  const requested = await imageTarget(ctx.projectRoot, args.path, overwrite);
  if (!requested.ok) return failure(requested.error);
  const provider = providerFor(settings, ctx.latheHome);
  if (!provider.ok) return failure(provider.error);

  const size = args.size ?? imageGenerationDefaults.size;
  const generated = await provider.provider.generate(
    { prompt: args.prompt, size },
    {
      signal: ctx.signal,
      providerLabel: provider.provider.label,
      fetchOptions: {
        ...settings.network,
        timeoutMs: settings.timeoutMs ?? imageGenerationDefaults.timeoutMs,
        maxBytes: imageGenerationDefaults.maxBytes,
      },
    },
  );
  if (!generated.ok) return failure(generated.error);
  const mediaType = sniffImageType(generated.bytes);
  if (mediaType === undefined) {
    const message = `${provider.provider.label} returned ${generated.bytes.length} bytes that are not a PNG, JPEG or WebP image.`;
    return failure(errorInfo("E_TOOL_EXECUTION", message));
  }

  // Checked again: the name may change to fit the format, and a file may have appeared meanwhile.
  const target = await imageTarget(ctx.projectRoot, withMatchingExtension(args.path, mediaType), overwrite);
  if (!target.ok) return failure(target.error);
  const saved = await writeProjectFile(ctx.projectRoot, target.path, generated.bytes);
  if (!saved.ok) return failure(saved.error);
  const written = saved.value;
  ctx.fileReads.noteWrite(target.path, {
    mtimeMs: written.mtimeMs,
    size: written.size,
    hash: sha256Hex(generated.bytes),
  });

  const format = imageFormatNames[mediaType];
  const renamed =
    target.relative === requested.relative
      ? ""
      : ` (the provider returned a ${format}, so the extension was changed from ${requested.relative})`;
  const bytes = generated.bytes.length.toLocaleString("en-US");
  const lines = [
    `Saved a ${format} image (${bytes} bytes, ${size} requested) to ${target.relative}${renamed}.`,
  ];
  if (generated.revisedPrompt !== undefined)
    lines.push(`The provider rewrote the prompt as: ${generated.revisedPrompt}`);
  return {
    ok: true,
    output: lines.join("\n"),
    metadata: { path: target.relative, bytes: generated.bytes.length, mediaType },
  };
}

function providerFor(
  settings: ImageGenerationSettings,
  latheHome: string,
): { ok: true; provider: ImageProvider } | { ok: false; error: LatheErrorInfo } {
  if (settings.provider === "sd-webui") return { ok: true, provider: sdWebUi(settings) };
  return openAiImages(settings, latheHome);
}

function failure(error: LatheErrorInfo): ToolResult {
  return { ok: false, error };
}
