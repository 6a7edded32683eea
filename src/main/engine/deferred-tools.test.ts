import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { baseParams, runQuery, scriptedModel, testTool } from '../../../test/support/engine'
import type { ToolResultBlock } from '../services/model/types'
import { offerTools, toolSearchMode, type ToolSearchPolicy } from './deferred-tools'

// The real loop, the real model service and SDK, the scripted server (which expands tool_reference
// blocks and rejects unresolved ones, as the API does).
const server = useModelServer()

const echo = testTool('Echo', { safe: true, run: async (input) => ({ content: `echo:${input.value}` }) })
const mcpTools = Array.from({ length: 50 }, (_, i) => testTool(`mcp__bench__tool_${String(i).padStart(2, '0')}`, { safe: true, run: async (input) => ({ content: `tool ${i}: ${input.value}` }) }))
const always: ToolSearchPolicy = { mode: { kind: 'always' }, deferBuiltins: false, contextWindow: 200_000 }

const toolsOf = (index: number) => server.requests[index]!.body['tools'] as Array<{ name: string; defer_loading?: boolean }>
const lastResult = (index: number) => {
  const messages = server.requests[index]!.body['messages'] as Array<{ content: unknown }>
  return (messages.at(-1)!.content as ToolResultBlock[])[0]!
}

describe('deferred tools (ToolSearch)', () => {
  it('sends the same tools bytes in every request, before and after ToolSearch loads a tool; a deferred tool runs only once loaded', async () => {
    server.setScenario([
      toolUseReply('mcp__bench__tool_07', { value: 'too early' }),
      toolUseReply('ToolSearch', { query: 'select:mcp__bench__tool_07', max_results: 5 }),
      toolUseReply('mcp__bench__tool_07', { value: 'now' }),
      textReply('done'),
    ])
    const { result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [echo, ...mcpTools], toolSearch: always }))
    expect(result.reason).toBe('completed')
    expect(server.failures).toEqual([])
    const first = JSON.stringify(toolsOf(0))
    for (let i = 1; i < 4; i++) expect(JSON.stringify(toolsOf(i))).toBe(first)
    expect(toolsOf(0).map((tool) => tool.name).slice(0, 2)).toEqual(['Echo', 'ToolSearch'])
    expect(toolsOf(0).filter((tool) => tool.defer_loading === true)).toHaveLength(50)
    expect(String(server.requests[0]!.headers['anthropic-beta'])).toContain('advanced-tool-use-2025-11-20')
    expect(lastResult(1)).toMatchObject({ is_error: true })
    expect(JSON.stringify(lastResult(1).content)).toContain('InputValidationError')
    expect(lastResult(2).content).toEqual([{ type: 'tool_reference', tool_name: 'mcp__bench__tool_07' }])
    expect(lastResult(3).content).toBe('tool 7: now')
  })

  it('keeps deferred definitions out of the prompt: the first request costs far fewer tokens than with every schema inline', async () => {
    server.setScenario([textReply('a'), textReply('b')])
    await runQuery(baseParams(scriptedModel(server.url), { tools: [echo, ...mcpTools], toolSearch: always }))
    await runQuery(baseParams(scriptedModel(server.url), { tools: [echo, ...mcpTools] }))
    const tokens = (i: number) => server.requests[i]!.simulatedUsage
    const total = (i: number) => tokens(i).input_tokens + tokens(i).cache_creation_input_tokens + tokens(i).cache_read_input_tokens
    expect(total(0)).toBeLessThan(total(1) / 2)
    expect(server.failures).toEqual([])
  })

  it('defers MCP tools only past the share of the window (auto), and built-ins only when the setting says so', () => {
    const webFetch = testTool('WebFetch', { run: async () => ({ content: '' }) })
    const small = { mode: { kind: 'auto', percent: 10 }, deferBuiltins: false, contextWindow: 200_000 } as const
    expect(offerTools([echo, ...mcpTools.slice(0, 2), webFetch], small).deferred.size).toBe(0)
    expect(offerTools([echo, ...mcpTools, webFetch], { ...small, contextWindow: 5_000 }).deferred.size).toBe(50)
    expect([...offerTools([echo, webFetch], { ...small, deferBuiltins: true }).deferred]).toEqual(['WebFetch'])
    expect(offerTools([echo, ...mcpTools], { ...small, mode: { kind: 'off' } }).deferred.size).toBe(0)
  })

  it('reads ENABLE_TOOL_SEARCH as Claude Code does, and names a value it cannot read', () => {
    expect(toolSearchMode(undefined).mode).toEqual({ kind: 'auto', percent: 10 })
    expect(toolSearchMode('true').mode).toEqual({ kind: 'always' })
    expect(toolSearchMode('false').mode).toEqual({ kind: 'off' })
    expect(toolSearchMode('auto:5').mode).toEqual({ kind: 'auto', percent: 5 })
    expect(toolSearchMode('sometimes').problem).toContain('Invalid ENABLE_TOOL_SEARCH value "sometimes"')
  })
})
