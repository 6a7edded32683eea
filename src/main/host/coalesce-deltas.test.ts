import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import type { EventChannel } from '../../shared/ipc/contract'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { coalesceDeltas } from './coalesce-deltas'

type Sent = { channel: EventChannel; payload: unknown }

/** A coalescer over a recording listener, with a window long enough that only the test flushes it, unless told. */
function recorder(windowMs = 10_000) {
  const sent: Sent[] = []
  const coalescer = coalesceDeltas((channel, payload) => void sent.push({ channel, payload }), { windowMs })
  const emit = (event: Partial<AgentEvent> & { type: AgentEvent['type']; agentId: string }) => coalescer.listener('agent.event', { sessionId: 's1', ...event } as AgentEvent)
  return { sent, coalescer, emit, events: () => sent.map(({ payload }) => payload as AgentEvent) }
}

const text = (agentId: string, value: string) => ({ type: 'text_delta' as const, agentId, text: value })
const thinking = (agentId: string, value: string) => ({ type: 'thinking_delta' as const, agentId, text: value })
/** What a test compares: who, what, and the text if any. */
const brief = (event: AgentEvent) => `${event.agentId}:${event.type}${'text' in event ? `:${event.text}` : ''}`

describe('coalesceDeltas', () => {
  it('merges one agent’s consecutive text deltas into one event with the first one’s fields', () => {
    const { coalescer, emit, events } = recorder()
    emit({ ...text('a', 'Hel'), parentToolUseId: 'toolu_1' })
    emit({ ...text('a', 'lo, '), parentToolUseId: 'toolu_1' })
    emit({ ...text('a', 'world'), parentToolUseId: 'toolu_1' })
    expect(events()).toEqual([])
    coalescer.flush()
    expect(events()).toEqual([{ sessionId: 's1', agentId: 'a', parentToolUseId: 'toolu_1', type: 'text_delta', text: 'Hello, world' }])
  })

  it('keeps each agent’s order across kinds, and every other event’s place', () => {
    const { emit, events } = recorder()
    emit(text('a', '1'))
    emit(text('b', 'x'))
    emit(text('a', '2'))
    emit(thinking('a', 'hmm'))
    emit(thinking('a', '…'))
    emit(text('b', 'y'))
    emit({ type: 'tool_use_start', agentId: 'b', toolUseId: 't1', name: 'Read' } as AgentEvent & { agentId: string })
    emit(text('a', '3'))
    emit({ type: 'turn_end', agentId: 'a', reason: 'completed' } as AgentEvent & { agentId: string })
    expect(events().map(brief)).toEqual(['a:text_delta:12', 'b:text_delta:xy', 'a:thinking_delta:hmm…', 'b:tool_use_start', 'a:text_delta:3', 'a:turn_end'])
  })

  it('tells sessions apart: the same agent id in two sessions is two agents', () => {
    const { coalescer, events } = recorder()
    coalescer.listener('agent.event', { sessionId: 's1', agentId: 'main', type: 'text_delta', text: 'one' })
    coalescer.listener('agent.event', { sessionId: 's2', agentId: 'main', type: 'text_delta', text: 'two' })
    coalescer.flush()
    expect(events().map((event) => `${event.sessionId}:${'text' in event ? event.text : ''}`)).toEqual(['s1:one', 's2:two'])
  })

  it('forwards what it holds before an event of another channel', () => {
    const { sent, coalescer, emit } = recorder()
    emit(text('a', 'before'))
    coalescer.listener('pty.data', { id: 'p1', data: 'out' })
    emit(text('a', 'after'))
    coalescer.flush()
    expect(sent.map(({ channel, payload }) => `${channel}:${(payload as { text?: string; data?: string }).text ?? (payload as { data: string }).data}`)).toEqual([
      'agent.event:before',
      'pty.data:out',
      'agent.event:after',
    ])
  })

  it('forwards held deltas when the window ends, once', async () => {
    const { emit, events } = recorder(5)
    emit(text('a', 'x'))
    emit(text('b', 'y'))
    emit(text('a', 'z'))
    await sleep(40)
    expect(events().map(brief)).toEqual(['a:text_delta:xz', 'b:text_delta:y'])
    emit(text('a', 'later'))
    await sleep(40)
    expect(events().map(brief)).toEqual(['a:text_delta:xz', 'b:text_delta:y', 'a:text_delta:later'])
  })

  it('loses nothing on close, and its timer sends nothing twice after', async () => {
    const { coalescer, emit, events } = recorder(5)
    emit(thinking('a', 'held'))
    emit(text('b', 'held too'))
    coalescer.flush()
    await sleep(40)
    expect(events().map(brief)).toEqual(['a:thinking_delta:held', 'b:text_delta:held too'])
  })

  it('reports a forward that threw on the timer and still sends the rest', async () => {
    const sent: string[] = []
    const errors: unknown[] = []
    const coalescer = coalesceDeltas(
      (_channel, payload) => {
        const event = payload as AgentEvent & { text: string }
        if (event.agentId === 'a') throw new Error('window gone')
        sent.push(event.text)
      },
      { windowMs: 5, onError: (error) => errors.push(error) },
    )
    coalescer.listener('agent.event', { sessionId: 's1', agentId: 'a', type: 'text_delta', text: 'lost to the window' })
    coalescer.listener('agent.event', { sessionId: 's1', agentId: 'b', type: 'text_delta', text: 'delivered' })
    await sleep(40)
    expect(sent).toEqual(['delivered'])
    expect(errors).toHaveLength(1)
  })
})
