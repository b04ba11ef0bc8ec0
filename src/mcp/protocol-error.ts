/**
 * A JSON-RPC error answer to throw from a request handler: the SDK answers a thrown error
 * with its numeric `code` and its `message` as they are. (The SDK's McpError would put
 * "MCP error -32602: " in front of the message on the wire.)
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
