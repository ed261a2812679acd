import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGenerateImageTool } from "../../src/tools/builtin/generateImage/generateImage.js";
import type { ImageGenerationSettings, OpenAiImageSettings } from "../../src/tools/web/imageSettings.js";
import { closeLocalServers, type LocalServer, sendJson, startLocalServer } from "./localHttpServers.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(async () => {
  await closeLocalServers();
  bed.cleanup();
});

/** A real 1×1 PNG. */
const pngBase64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const pngBytes = Buffer.from(pngBase64, "base64");

function generate(args: Record<string, unknown>, settings: ImageGenerationSettings | undefined) {
  const tool = createGenerateImageTool(() => settings);
  return tool.execute(tool.schema.parse(args), bed.context());
}

/** An OpenAI-compatible images endpoint on 127.0.0.1, reached with loopback allowed and no ambient keys. */
function compatible(server: LocalServer, extra: Partial<OpenAiImageSettings> = {}): OpenAiImageSettings {
  return {
    provider: "openai-compatible",
    baseUrl: `${server.origin}/v1/`,
    model: "test-image-model",
    network: { allowLoopback: true },
    env: { OPENAI_COMPATIBLE_API_KEY: "local-key" },
    ...extra,
  };
}

function imagesEndpoint(answer: (body: Record<string, unknown>) => [number, unknown]): Promise<LocalServer> {
  return startLocalServer((request, response) => {
    const [status, body] = answer(JSON.parse(request.body) as Record<string, unknown>);
    sendJson(response, status, body);
  });
}

const inProject = (relative: string) => path.join(bed.projectRoot, relative);

describe("generate_image: providers", () => {
  it("saves the PNG an OpenAI-compatible endpoint returns, byte for byte", async () => {
    const server = await imagesEndpoint(() => [200, { created: 1, data: [{ b64_json: pngBase64 }] }]);
    const result = await generate(
      { prompt: "a red dot", path: "assets/dot.png", size: "256x256" },
      compatible(server),
    );
    expect(outputOf(result)).toBe(
      `Saved a PNG image (${pngBytes.length} bytes, 256x256 requested) to ${path.join("assets", "dot.png")}.`,
    );
    expect(result.ok && result.metadata).toEqual({
      path: path.join("assets", "dot.png"),
      bytes: pngBytes.length,
      mediaType: "image/png",
    });
    expect(readFileSync(inProject("assets/dot.png"))).toEqual(pngBytes);

    const request = server.requests[0];
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/v1/images/generations");
    expect(request?.headers.authorization).toBe("Bearer local-key");
    expect(JSON.parse(request?.body ?? "{}")).toEqual({
      model: "test-image-model",
      prompt: "a red dot",
      size: "256x256",
      n: 1,
      response_format: "b64_json",
    });
  });

  it("leaves response_format out for GPT image models and reports a rewritten prompt", async () => {
    const server = await imagesEndpoint((body) => [
      200,
      { data: [{ b64_json: pngBase64, revised_prompt: `${String(body.prompt)}, centred` }] },
    ]);
    const output = outputOf(
      await generate({ prompt: "a dot", path: "dot.png" }, compatible(server, { model: "gpt-image-1" })),
    );
    expect(JSON.parse(server.requests[0]?.body ?? "{}")).not.toHaveProperty("response_format");
    expect(JSON.parse(server.requests[0]?.body ?? "{}")).toMatchObject({ size: "1024x1024" });
    expect(output).toContain("The provider rewrote the prompt as: a dot, centred");
  });

  it("downloads the image through the guard when the endpoint answers with a URL", async () => {
    const server = await startLocalServer((request, response, self) => {
      if (request.url === "/files/dot.png") {
        response.writeHead(200, { "content-type": "image/png" });
        response.end(pngBytes);
      } else {
        sendJson(response, 200, { data: [{ url: `${self.origin}/files/dot.png` }] });
      }
    });
    await generate({ prompt: "a dot", path: "dot.png" }, compatible(server));
    expect(readFileSync(inProject("dot.png"))).toEqual(pngBytes);
  });

  it("saves the first image of a Stable Diffusion WebUI txt2img answer", async () => {
    const server = await imagesEndpoint(() => [200, { images: [pngBase64], parameters: {}, info: "{}" }]);
    const result = await generate(
      { prompt: "a lighthouse", path: "art/lighthouse.png", size: "512x512" },
      { provider: "sd-webui", url: server.origin, steps: 12, network: { allowLoopback: true } },
    );
    expect(outputOf(result)).toContain(`Saved a PNG image (${pngBytes.length} bytes, 512x512 requested)`);
    expect(readFileSync(inProject("art/lighthouse.png"))).toEqual(pngBytes);
    expect(server.requests[0]?.url).toBe("/sdapi/v1/txt2img");
    expect(JSON.parse(server.requests[0]?.body ?? "{}")).toMatchObject({
      prompt: "a lighthouse",
      width: 512,
      height: 512,
      steps: 12,
    });
  });

  it("passes a content-policy refusal through with the provider's reason", async () => {
    const reason = "Your request was rejected as a result of our safety system.";
    const server = await imagesEndpoint(() => [
      400,
      { error: { code: "content_policy_violation", message: reason, type: "invalid_request_error" } },
    ]);
    const error = errorOf(await generate({ prompt: "something refused", path: "x.png" }, compatible(server)));
    expect(error.code).toBe("E_TOOL_EXECUTION");
    expect(error.message).toBe(
      `The images API at ${server.origin}/v1/ refused the request (HTTP 400): ${reason}`,
    );
    expect(existsSync(inProject("x.png"))).toBe(false);
  });

  it("refuses an answer that is not an image", async () => {
    const server = await imagesEndpoint(() => [
      200,
      { data: [{ b64_json: Buffer.from("<html>").toString("base64") }] },
    ]);
    const error = errorOf(await generate({ prompt: "p", path: "x.png" }, compatible(server)));
    expect(error.message).toContain("not a PNG, JPEG or WebP image");
    expect(existsSync(inProject("x.png"))).toBe(false);
  });

  it("changes the extension to match the format the provider returned", async () => {
    const server = await imagesEndpoint(() => [200, { data: [{ b64_json: pngBase64 }] }]);
    const result = await generate({ prompt: "p", path: "photo.jpg" }, compatible(server));
    expect(outputOf(result)).toContain(
      "to photo.png (the provider returned a PNG, so the extension was changed from photo.jpg)",
    );
    expect(readFileSync(inProject("photo.png"))).toEqual(pngBytes);
    expect(existsSync(inProject("photo.jpg"))).toBe(false);
  });
});

describe("generate_image: configuration", () => {
  it("says how to configure a provider when none is", async () => {
    const error = errorOf(await generate({ prompt: "p", path: "x.png" }, undefined));
    expect(error.code).toBe("E_TOOL_EXECUTION");
    expect(error.message).toMatch(/^no image provider configured: set imageGeneration in settings.json \(/);
  });

  it("asks for an OpenAI key before calling anything", async () => {
    const error = errorOf(
      await generate(
        { prompt: "p", path: "x.png" },
        { provider: "openai", env: {}, network: { allowLoopback: true } },
      ),
    );
    expect(error.code).toBe("E_TOOL_EXECUTION");
    expect(error.message).toContain("OPENAI_API_KEY");
  });

  it("sends the OpenAI key only as OpenAI's, and nothing to a compatible server without its own key", async () => {
    const server = await imagesEndpoint(() => [200, { data: [{ b64_json: pngBase64 }] }]);
    const env = { OPENAI_API_KEY: "sk-openai" };
    await generate(
      { prompt: "p", path: "a.png" },
      { provider: "openai", baseUrl: `${server.origin}/v1`, env, network: { allowLoopback: true } },
    );
    await generate({ prompt: "p", path: "b.png" }, compatible(server, { env }));
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer sk-openai",
      undefined,
    ]);
    expect(JSON.parse(server.requests[0]?.body ?? "{}")).toMatchObject({ model: "gpt-image-1" });
  });

  it("goes through the network guard: loopback is refused unless allowed", async () => {
    const server = await imagesEndpoint(() => [200, { data: [{ b64_json: pngBase64 }] }]);
    const error = errorOf(
      await generate({ prompt: "p", path: "x.png" }, compatible(server, { network: {} })),
    );
    expect(error.code).toBe("E_NETWORK_BLOCKED");
    expect(server.requests).toHaveLength(0);
  });
});

describe("generate_image: where the file goes", () => {
  it("refuses a path outside the project before calling the provider", async () => {
    const server = await imagesEndpoint(() => [200, { data: [{ b64_json: pngBase64 }] }]);
    const error = errorOf(await generate({ prompt: "p", path: "../outside/evil.png" }, compatible(server)));
    expect(error.code).toBe("E_PATH_TRAVERSAL");
    expect(server.requests).toHaveLength(0);
    expect(existsSync(path.join(bed.outside, "evil.png"))).toBe(false);
  });

  it("refuses file names with control characters or without an image extension", async () => {
    const server = await imagesEndpoint(() => [200, { data: [{ b64_json: pngBase64 }] }]);
    for (const bad of ["bad\nname.png", "logo\u202Egnp.js", "script.sh", "image.svg", ".png", "assets/"]) {
      const error = errorOf(await generate({ prompt: "p", path: bad }, compatible(server)));
      expect(error.code, bad).toBe("E_INVALID_ARGS");
    }
    expect(server.requests).toHaveLength(0);
  });

  it("never overwrites an existing file unless told to", async () => {
    writeFileSync(inProject("keep.png"), "original");
    const server = await imagesEndpoint(() => [200, { data: [{ b64_json: pngBase64 }] }]);
    const error = errorOf(await generate({ prompt: "p", path: "keep.png" }, compatible(server)));
    expect(error.code).toBe("E_INVALID_ARGS");
    expect(error.message).toContain("keep.png already exists");
    expect(server.requests).toHaveLength(0);
    expect(readFileSync(inProject("keep.png"), "utf8")).toBe("original");

    outputOf(await generate({ prompt: "p", path: "keep.png", overwrite: true }, compatible(server)));
    expect(readFileSync(inProject("keep.png"))).toEqual(pngBytes);
  });

  it("is a medium-risk edit", () => {
    const tool = createGenerateImageTool(() => undefined);
    expect(tool.kind).toBe("edit");
    expect(tool.risk({ prompt: "p", path: "x.png" }, { projectRoot: bed.projectRoot })).toBe("medium");
  });
});
