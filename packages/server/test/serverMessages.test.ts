import { eventSchema, serverMessageSchema } from "@lathe/protocol";
import { expect, it } from "vitest";

it("server messages never share a type with a session event, so clients tell them apart by type", () => {
  const types = (schema: { options: readonly { shape: { type: { value: string } } }[] }) =>
    schema.options.map((option) => option.shape.type.value);
  const serverTypes = types(serverMessageSchema);
  expect(serverTypes).toEqual(["hello", "replay_gap", "pending_input", "engine_error"]);
  for (const type of serverTypes) expect(types(eventSchema.unwrap())).not.toContain(type);
});
