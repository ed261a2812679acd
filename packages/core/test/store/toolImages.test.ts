import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStoreTestBed, message, type StoreTestBed } from "./storeTestBed.js";

let bed: StoreTestBed;
beforeEach(() => {
  bed = createStoreTestBed();
});
afterEach(() => bed.cleanup());

describe("tool images", () => {
  it("are not written to the database; the rest of the result is", () => {
    const store = bed.open();
    store.ensureSession({ id: "s1", projectRoot: "/p", mode: "agent", model: "anthropic:claude-sonnet-4-5" });
    const part = {
      type: "tool_result" as const,
      callId: "c1",
      providerCallId: "p1",
      name: "browser_use",
      status: "success" as const,
      output: "Saved screenshot to shot.png",
      images: [{ mediaType: "image/png", data: "QUJD".repeat(1000) }],
    };
    store.appendMessage(message("s1", "tool", [part]));
    const [stored] = store.messages("s1");
    const { images: _images, ...withoutImages } = part;
    expect(stored?.parts).toEqual([withoutImages]);
  });
});
