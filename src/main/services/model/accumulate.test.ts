import type Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import { StreamAccumulator } from './accumulate'

// Raw events typed loosely on purpose: the accumulator must cope with what the wire sends.
const ev = (e: Record<string, unknown>) => e as unknown as Anthropic.RawMessageStreamEvent
const start = ev({ type: 'message_start', message: { model: 'claude-sonnet-4-6', usage: { input_tokens: 5, output_tokens: 1 } } })

function feed(events: Anthropic.RawMessageStreamEvent[]): StreamAccumulator {
  const acc = new StreamAccumulator('claude-sonnet-4-6')
  for (const event of events) acc.push(event)
  return acc
}

const badTool = [
  start,
  ev({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't1', name: 'Write', input: {} } }),
  ev({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"file_path": "/a", "con' } }),
  ev({ type: 'content_block_stop', index: 0 }),
]

describe('StreamAccumulator', () => {
  it('reports a stream that ended before any content as retryable (not mid-stream)', () => {
    expect(feed([start]).finish()).toMatchObject({ type: 'error', reason: 'connection', midStream: false })
  })

  it('keeps a truncated tool input as {} when max_tokens explains it', () => {
    const acc = feed([...badTool, ev({ type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 9 } }), ev({ type: 'message_stop' })])
    expect(acc.finish()).toMatchObject({ type: 'message_end', stopReason: 'max_tokens', content: [{ type: 'tool_use', input: {} }], usage: { outputTokens: 9 } })
  })

  it('fails mid-stream on invalid tool JSON otherwise', () => {
    const acc = feed([...badTool, ev({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }), ev({ type: 'message_stop' })])
    expect(acc.finish()).toMatchObject({ type: 'error', reason: 'unknown', midStream: true, message: expect.stringContaining('Write') })
  })

  it('ignores unknown events and block kinds', () => {
    const acc = feed([
      start,
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'container_upload', file_id: 'f' } }),
      ev({ type: 'content_block_stop', index: 0 }),
      ev({ type: 'something_new' }),
      ev({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }),
      ev({ type: 'message_stop' }),
    ])
    expect(acc.finish()).toMatchObject({ type: 'message_end', content: [] })
  })

  it('keeps the web search server tool blocks whole, to be echoed back', () => {
    const result = { type: 'web_search_tool_result', tool_use_id: 's', content: [{ type: 'web_search_result', title: 'T', url: 'https://example.com/', encrypted_content: 'x', page_age: null }] }
    const acc = feed([
      start,
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 's', name: 'web_search', input: {} } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query":"q"}' } }),
      ev({ type: 'content_block_stop', index: 0 }),
      ev({ type: 'content_block_start', index: 1, content_block: result }),
      ev({ type: 'content_block_stop', index: 1 }),
      ev({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }),
      ev({ type: 'message_stop' }),
    ])
    expect(acc.finish()).toMatchObject({ type: 'message_end', content: [{ type: 'server_tool_use', id: 's', name: 'web_search', input: { query: 'q' } }, result] })
  })
})
