/** A server that keeps handing out cursors is cut off here rather than followed forever. */
const maxPages = 100;

/** Every item of a paginated MCP list (`tools/list`, `resources/list`…), following `nextCursor`. */
export async function collectPages<Page extends { nextCursor?: string | undefined }, Item>(
  fetchPage: (cursor: string | undefined) => Promise<Page>,
  itemsOf: (page: Page) => Item[],
): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await fetchPage(cursor);
    items.push(...itemsOf(result));
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return items;
}
