/**
 * Helpers for engine tests and benchmarks: a real AnthropicModelService pointed at the scripted
 * model server, small real tools, and a collector for the loop's events. Not used in production.
 */
import { expect } from 'vitest'
import { z } from 'zod'
import type { AgentEvent } from '../../src/shared/protocol/agent-event'
import { AnthropicModelService } from '../../src/main/services/model/anthropic-model-service'
import { resolveModelConfig } from '../../src/main/services/model/config'
import type { Message, ToolResultBlock } from '../../src/main/services/model/types'
import type { AnyTool, ToolContext, ToolResult } from '../../src/main/tools/types'
import { query } from '../../src/main/engine/query'
import { runToEnd, turnEnd } from '../../src/main/engine/run'
import type { QueryParams, QueryResult } from '../../src/main/engine/types'

/** The real model service against a scripted server, with short retry delays. */
export function scriptedModel(baseURL: string, fallbackModel?: string): AnthropicModelService {
  const config = resolveModelConfig(
    {},
    { apiKey: 'test-key', baseURL, ...(fallbackModel ? { fallbackModel } : {}), retry: { baseDelayMs: 5, maxDelayMs: 20, jitter: 0 } },
  )
  if (!config.ok) throw new Error(config.error.message)
  return new AnthropicModelService(config.value)
}

/** A small tool over a `{ value: string }` input. */
export function testTool(
  name: string,
  options: { safe?: boolean; readOnly?: boolean; run: (input: { value: string }, ctx: ToolContext) => Promise<ToolResult> },
): AnyTool {
  const inputSchema = z.object({ value: z.string() })
  return {
    name,
    label: name,
    description: `Test tool ${name}.`,
    inputSchema,
    jsonSchema: z.toJSONSchema(inputSchema) as Record<string, unknown>,
    isReadOnly: () => options.readOnly ?? options.safe ?? false,
    isDestructive: () => false,
    isConcurrencySafe: () => options.safe ?? false,
    isBookkeeping: () => false,
    summarize: (input: { value: string }) => `${name} ${input.value}`,
    execute: options.run,
  }
}

/** Resolves when `signal` aborts. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })))
}

/**
 * Runs the loop to its end, keeping every event, and closes the run as its callers do (the
 * `turn_end` that {@link turnEnd} makes from the result comes last).
 */
export async function runQuery(params: QueryParams, onEvent?: (event: AgentEvent) => void): Promise<{ events: AgentEvent[]; result: QueryResult }> {
  const events: AgentEvent[] = []
  const keep = (event: AgentEvent): void => {
    events.push(event)
    onEvent?.(event)
  }
  const result = await runToEnd(query(params), keep)
  keep(turnEnd(result, params))
  return { events, result }
}

/** Defaults for a test run; override what the test is about. */
export function baseParams(model: AnthropicModelService, overrides: Partial<QueryParams> = {}): QueryParams {
  return {
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Do the task.' }] }],
    system: [
      { type: 'text', text: 'static system prompt', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'dynamic system prompt', cache_control: { type: 'ephemeral' } },
    ],
    tools: [],
    model,
    modelName: 'claude-sonnet-4-6',
    maxTurns: 20,
    signal: new AbortController().signal,
    sessionId: 'session-test',
    agentId: 'main',
    cwd: process.cwd(),
    projectRoot: process.cwd(),
    projectDataDir: process.cwd(),
    canUseTool: async () => ({ behavior: 'allow' }),
    streamRetryDelayMs: 1,
    ...overrides,
  }
}

/** Events of one type. */
export function ofType<T extends AgentEvent['type']>(events: AgentEvent[], type: T): Array<Extract<AgentEvent, { type: T }>> {
  return events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type)
}

/** The messages the loop sent in its `index`-th request to the scripted server. */
export function sentAt(server: { requests: ReadonlyArray<{ body: Record<string, unknown> }> }, index: number): Message[] {
  return server.requests[index]!.body['messages'] as Message[]
}

/** Every tool_use in a conversation is answered, first thing, by the next user message. */
export function expectPaired(messages: Message[]): void {
  messages.forEach((message, index) => {
    if (message.role !== 'assistant') return
    const ids = message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []))
    if (ids.length === 0) return
    const next = messages[index + 1]
    expect(next?.role).toBe('user')
    const blocks = next!.content as ToolResultBlock[]
    expect(blocks.slice(0, ids.length).map((block) => [block.type, block.tool_use_id])).toEqual(ids.map((id) => ['tool_result', id]))
  })
}
