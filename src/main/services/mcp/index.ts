/**
 * The MCP client: the only code that imports `@modelcontextprotocol/sdk`. Everything it hands
 * out is plain data (see `types.ts`) or {@link McpServers} / {@link McpConnection}.
 */
export { McpServers, mcpConnectTimeoutMs, type McpServersOptions } from './servers'
export { McpConnection } from './connection'
export { normalizeServerName, type McpConfigProblem, type McpServerDefinition, type McpScope } from './config'
export * from './types'
