import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import { streamShape, type StreamShape } from '../../test/support/stream-shape'

// `--output-format stream-json` against Claude Code's own: the fixture is the shape (keys and JSON
// types, no text) of Claude Code 2.1.328's stream for the same session — a Read call, a subagent,
// an answer — recorded against test/model-server/cli.ts with
// test/fixtures/claude-code-2.1.328-stream-json.scenario.json. Sous's stream is recorded here the
// same way and compared field by field.
const server = useModelServer()
const headless = useHeadless(server)

const recorded = JSON.parse(readFileSync(join(import.meta.dirname, '../../test/fixtures/claude-code-2.1.328-stream-json.shape.json'), 'utf8')) as { shape: StreamShape }

/** Claude Code's kinds of line Sous does not print (its task and status lines). */
const KINDS_NOT_PRINTED = ['system:status', 'system:task_notification', 'system:task_started', 'system:task_updated']

/** Claude Code fields Sous leaves out, per kind: Claude Code's own features, accounting and timing. */
const FIELDS_NOT_PRINTED: Record<string, string[]> = {
  'system:init': ['additional_directories', 'analytics_disabled', 'capabilities', 'fast_mode_disabled_reason', 'fast_mode_state', 'memory_paths', 'messaging_socket_path', 'original_cwd', 'per_turn_effort_active', 'plugins', 'product_feedback_disabled', 'terminal_slash_commands', 'ultrathink_available', 'ultrathink_typed_raises', 'view_mode'],
  'assistant:*': ['request_id', 'message.context_management'],
  'user:tool_result': ['tool_result_meta', 'tool_use_result'],
  'stream_event:*': ['api_message_id', 'thinking_display', 'ttft_ms'],
  'result:success': ['api_error_status', 'duration_api_ms', 'fast_mode_disabled_reason', 'fast_mode_state', 'first_content_frame_ms', 'modelUsage', 'model_usage_since_last_result', 'queued_turn_count', 'result_index', 'safety_stops', 'stop_reason', 'subagent_stats', 'time_to_request_ms', 'ttft_ms', 'ttft_stream_ms', 'uuid'],
}

function notPrinted(kind: string): string[] {
  return [...(FIELDS_NOT_PRINTED[kind] ?? []), ...(FIELDS_NOT_PRINTED[`${kind.split(':')[0]}:*`] ?? [])]
}

async function sousStream(): Promise<{ lines: Array<Record<string, unknown>>; code: number }> {
  await writeFile(join(headless.project, 'notes.txt'), 'hello from the file\n')
  server.setScenario([
    toolUseReply('Read', { file_path: join(headless.project, 'notes.txt') }, { id: 'toolu_read1' }),
    toolUseReply('Agent', { description: 'Check the notes', prompt: 'Say what notes.txt holds.', subagent_type: 'general-purpose', run_in_background: false }, { id: 'toolu_agent1' }),
    textReply('The notes say hello.'),
    textReply('All done.'),
  ])
  const run = await headless.sous(['--output-format', 'stream-json', '--verbose', '--include-partial-messages', '--permission-mode', 'bypassPermissions', 'Read notes.txt then ask an agent'])
  return { code: run.code, lines: run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>) }
}

describe('stream-json as Claude Code prints it', () => {
  it('has Claude Code 2.1.328\'s kinds of line, and every field either matches its type or is a listed omission', async () => {
    const { code, lines } = await sousStream()
    expect(code).toBe(0)
    const ours = streamShape(lines)
    const theirs = recorded.shape
    // No kind of line Claude Code does not print; every kind it prints but the listed ones.
    expect(Object.keys(ours).filter((kind) => !(kind in theirs))).toEqual([])
    expect(Object.keys(theirs).filter((kind) => !(kind in ours)).sort()).toEqual(KINDS_NOT_PRINTED)
    for (const [kind, fields] of Object.entries(theirs)) {
      if (KINDS_NOT_PRINTED.includes(kind)) continue
      const mine = ours[kind]!
      const mismatched = Object.entries(fields).filter(([field, type]) => !notPrinted(kind).includes(field) && mine[field] !== type).map(([field, type]) => `${kind} ${field}: ours ${mine[field] ?? 'missing'}, Claude Code ${type}`)
      expect(mismatched).toEqual([])
      // And nothing of Sous's own beyond what Claude Code has, except in the result (Sous's additions are documented).
      if (!kind.startsWith('result')) expect(Object.keys(mine).filter((field) => !(field in fields))).toEqual([])
    }
  })

  it('carries the session: init names tools, model, mode, cwd, session and MCP servers; messages are whole; the subagent\'s prompt sits under its Agent call', async () => {
    const { lines } = await sousStream()
    const init = lines[0]!
    expect(init).toMatchObject({ type: 'system', subtype: 'init', cwd: headless.project, permissionMode: 'bypassPermissions', mcp_servers: [], session_id: expect.any(String) })
    expect(init['tools']).toEqual(expect.arrayContaining(['Read', 'Bash', 'Agent']))
    const assistants = lines.filter((line) => line['type'] === 'assistant')
    expect(assistants.map((line) => (line['message'] as { content: Array<{ type: string; name?: string }> }).content.map((block) => block.name ?? block.type))).toEqual([['Read'], ['Agent'], ['text']])
    const sub = lines.find((line) => line['type'] === 'user' && line['parent_tool_use_id'] === 'toolu_agent1')
    expect(sub).toMatchObject({ message: { role: 'user', content: [{ type: 'text', text: 'Say what notes.txt holds.' }] }, subagent_type: 'general-purpose' })
    const deltas = lines.filter((line) => line['type'] === 'stream_event' && (line['event'] as { type: string }).type === 'content_block_delta')
    expect(deltas.map((line) => ((line['event'] as { delta: { text?: string } }).delta.text ?? '')).join('')).toBe('All done.')
    expect(lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'All done.', session_id: init['session_id'] })
  })

  it('without --include-partial-messages there are no stream events', async () => {
    server.setScenario([textReply('Hi.')])
    const run = await headless.sous(['--output-format', 'stream-json', 'Hi'])
    const types = run.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { type: string }).type)
    expect(types).toEqual(['system', 'assistant', 'result'])
  })
})

describe('--input-format stream-json', () => {
  it('runs one turn per user line in one session; a line that does not parse is an error result and the rest still runs', async () => {
    server.setScenario([textReply('First.'), textReply('Second.')])
    const stdin = [
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'one' } }),
      '{ not json',
      JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'two' }] } }),
    ].join('\n')
    const run = await headless.sous(['--input-format', 'stream-json', '--output-format', 'stream-json'], { stdin })
    expect(run.code).toBe(1)
    const results = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['type'] === 'result')
    expect(results.map((result) => [result['is_error'], result['result']])).toEqual([[false, 'First.'], [true, ''], [false, 'Second.']])
    expect(String(results[1]!['error'])).toContain('stdin line 2: not JSON')
    expect(new Set(results.map((result) => result['session_id'])).size).toBe(1)
    expect(JSON.stringify(server.requests[1]!.body['messages'])).toContain('First.')
  })
})
