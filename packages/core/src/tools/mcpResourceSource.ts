/**
 * What the resource tools and `@server:uri` mentions need of the MCP servers: their resources,
 * listed and read. The MCP hub implements it; the interface lives here so tools and context never
 * import the hub.
 */

export interface McpResourceInfo {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** Something that went wrong with one server; the others are not affected. */
export interface McpServerFailure {
  server: string;
  error: string;
}

/** Items gathered from every running server, and the servers that could not answer. */
export interface McpListing<Item> {
  items: Item[];
  failures: McpServerFailure[];
}

export interface McpResourceSource {
  /** Whether a server of this name is configured (running or not). */
  hasServer(name: string): boolean;
  /** The resources of every running server, or of the one named. */
  resources(signal?: AbortSignal, server?: string): Promise<McpListing<McpResourceInfo>>;
  /** A resource's contents as text; throws a LatheError naming the server when it cannot. */
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<string>;
}
