/**
 * Deferred tools (issue 24, point 5): what ToolSearch saves in every request with a real 50-tool
 * MCP server (test/mcp/many-tools-server.mjs over stdio, through Sous's MCP client and tool
 * pool). The same one-prompt run is sent to the scripted server with tool search off and on
 * (`ENABLE_TOOL_SEARCH=false` / `true`); printed: the bytes of the first request, and the prompt
 * tokens the scripted server counts (it leaves `defer_loading` tools out of the prompt and expands
 * `tool_reference` blocks, as the API does). Also whether `auto` (the default, 10 % of the window)
 * defers them. Printed, never asserted.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startModelServer, textReply } from '../test/model-server'
import { McpServers } from '../src/main/services/mcp'
import { McpToolPool } from '../src/main/tools/mcp/mcp-pool'
import { AnthropicModelService, resolveModelConfig } from '../src/main/services/model'
import { query } from '../src/main/engine/query'
import { offerTools, toolSearchMode, type ToolSearchPolicy } from '../src/main/engine/deferred-tools'
import { createCoreTools } from '../src/main/tools/registry'
import type { AnyTool } from '../src/main/tools/types'

const SERVER = resolve(import.meta.dirname, '../test/mcp/many-tools-server.mjs')

export default async function bench(): Promise<void> {
  const project = await mkdtemp(join(tmpdir(), 'sous-bench-deferred-'))
  await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { tracker: { command: process.execPath, args: [SERVER] } } }))
  const servers = new McpServers({ projectRoot: project, userHome: project, sousHome: project, env: { PATH: process.env['PATH'] }, trusted: () => true, projectApproval: 'all' })
  const model = await startModelServer({ scenario: [textReply('ok')], loop: true })
  try {
    servers.start()
    await servers.waitFor(undefined, 30_000)
    const mcp = new McpToolPool(servers, { outputTokens: 25_000 }).tools().filter((tool) => tool.name.startsWith('mcp__tracker__'))
    if (mcp.length !== 50) throw new Error(`expected 50 tools from the server, got ${mcp.length}`)
    const core = createCoreTools({ pty: undefined as never, classify: undefined as never, inspect: undefined as never, sandbox: async () => undefined })
    const tools: AnyTool[] = [...core, ...mcp]
    const config = resolveModelConfig({ ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: model.url }, { model: 'claude-opus-4-5' })
    if (!config.ok) throw new Error(config.error.message)
    const service = new AnthropicModelService(config.value)
    const run = async (policy: ToolSearchPolicy | undefined) => {
      const before = model.requests.length
      for await (const _ of query({ messages: [{ role: 'user', content: 'hi' }], system: [{ type: 'text', text: 'You are a bench.' }], tools, ...(policy && { toolSearch: policy }), model: service, modelName: 'claude-opus-4-5', maxTurns: 1, signal: new AbortController().signal, cwd: project, projectRoot: project, projectDataDir: project, sessionId: 'bench', agentId: 'main', canUseTool: async () => ({ behavior: 'allow' }) } as Parameters<typeof query>[0])) void _
      const request = model.requests[before]!
      const usage = request.simulatedUsage
      return { bytes: Buffer.byteLength(JSON.stringify(request.body)), toolBytes: Buffer.byteLength(JSON.stringify(request.body['tools'])), tokens: usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens }
    }
    const window = 200_000
    const off = await run({ mode: toolSearchMode('false').mode, deferBuiltins: false, contextWindow: window })
    const on = await run({ mode: toolSearchMode('true').mode, deferBuiltins: false, contextWindow: window })
    const both = await run({ mode: toolSearchMode('true').mode, deferBuiltins: true, contextWindow: window })
    const mcpTokens = Math.ceil(mcp.reduce((sum, tool) => sum + JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.jsonSchema }).length, 0) / 4)
    const auto = offerTools(tools, { mode: toolSearchMode(undefined).mode, deferBuiltins: false, contextWindow: window }).deferred.size
    const k = (n: number) => n.toLocaleString('en-US')
    console.log(`a real stdio MCP server with ${mcp.length} tools, ${core.length} built-in tools, first request of a one-prompt run`)
    console.log(`  tool search off (ENABLE_TOOL_SEARCH=false): ${k(off.tokens)} prompt tokens, ${k(off.bytes)} bytes (tools ${k(off.toolBytes)})`)
    console.log(`  tool search on  (ENABLE_TOOL_SEARCH=true):  ${k(on.tokens)} prompt tokens, ${k(on.bytes)} bytes (tools ${k(on.toolBytes)})  → ${k(off.tokens - on.tokens)} tokens saved per request (${((1 - on.tokens / off.tokens) * 100).toFixed(0)} %)`)
    console.log(`  … and deferBuiltinTools:                    ${k(both.tokens)} prompt tokens → ${k(off.tokens - both.tokens)} saved (${((1 - both.tokens / off.tokens) * 100).toFixed(0)} %)`)
    console.log(`  the bytes on the wire barely change: every deferred definition is still sent (defer_loading), so the tools array stays the same bytes for the prompt cache; the model does not read them until ToolSearch loads one`)
    console.log(`  auto (the default, 10 % of a ${k(window)}-token window = ${k(window / 10)} tokens): these MCP schemas are ~${k(mcpTokens)} tokens → ${auto > 0 ? 'deferred' : 'not deferred (below the threshold)'}`)
  } finally {
    await servers.dispose()
    await model.close()
    await rm(project, { recursive: true, force: true })
  }
}
