/**
 * The parts of `@modelcontextprotocol/sdk` the client runs with, in one module that is imported
 * only when a server actually starts: loading the SDK costs hundreds of milliseconds, which a
 * session without MCP servers (most `sous -p` runs) must not pay.
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js'
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
export { ListRootsRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
export { ProcessTransport } from './stdio-transport'
