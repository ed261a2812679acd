import { shippedCatalog } from "@lathe/core";

/**
 * The models a user can switch to (`/model`, an editor's model menu): the current one first, then
 * the catalog's models of its provider and of every provider with a key.
 */
export function modelChoices(current: string, keyed: ReadonlySet<string>): string[] {
  const providers = new Set([current.split(":")[0] ?? "", ...keyed]);
  const others = [...shippedCatalog().keys()].filter(
    (id) => providers.has(id.split(":")[0] ?? "") && id !== current,
  );
  return [current, ...others];
}
