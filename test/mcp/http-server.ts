import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'

/** A running test server: Streamable HTTP at `url`, legacy SSE at `sseUrl`. */
export interface HttpMcpServer {
  url: string
  sseUrl: string
  /** Authorization headers seen, newest last (to check configured headers arrive). */
  authorizations: string[]
  close(): Promise<void>
}

/**
 * An MCP server over HTTP for tests, written with the SDK's server transports on `node:http`:
 * Streamable HTTP (stateful sessions) at `/mcp`, and the legacy SSE transport at `/sse` with
 * messages posted to `/messages`. Each connection gets its own server with two tools:
 * `shout {text}` (read-only) and `whoami` (which transport answered).
 */
export async function startHttpMcpServer(): Promise<HttpMcpServer> {
  const streamable = new Map<string, StreamableHTTPServerTransport>()
  const sse = new Map<string, SSEServerTransport>()
  const authorizations: string[] = []
  const open = new Set<McpServer>()

  const build = (transport: string): McpServer => {
    const server = new McpServer({ name: `http-fixture-${transport}`, version: '1.0.0' })
    server.registerTool('shout', { description: 'Upper-cases the text.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } }, async ({ text }) => ({
      content: [{ type: 'text', text: text.toUpperCase() }],
    }))
    server.registerTool('whoami', { description: 'Says which transport answered.', annotations: { readOnlyHint: true } }, async () => ({ content: [{ type: 'text', text: transport }] }))
    open.add(server)
    return server
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (req.headers.authorization) authorizations.push(req.headers.authorization)
    if (url.pathname === '/mcp') {
      const body = req.method === 'POST' ? await readJson(req) : undefined
      const id = req.headers['mcp-session-id']
      let transport = typeof id === 'string' ? streamable.get(id) : undefined
      if (!transport) {
        transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sessionId) => void streamable.set(sessionId, transport!) })
        await build('streamable-http').connect(transport)
      }
      await transport.handleRequest(req, res, body)
      return
    }
    if (url.pathname === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res)
      sse.set(transport.sessionId, transport)
      res.on('close', () => sse.delete(transport.sessionId))
      await build('sse').connect(transport)
      return
    }
    if (url.pathname === '/messages' && req.method === 'POST') {
      const transport = sse.get(url.searchParams.get('sessionId') ?? '')
      if (!transport) {
        res.writeHead(404).end('no such session')
        return
      }
      await transport.handlePostMessage(req, res, await readJson(req))
      return
    }
    res.writeHead(404).end()
  }

  const http: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error))
    })
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const { port } = http.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sseUrl: `http://127.0.0.1:${port}/sse`,
    authorizations,
    async close() {
      await Promise.all([...open].map((server) => server.close().catch(() => undefined)))
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  return text ? (JSON.parse(text) as unknown) : undefined
}
