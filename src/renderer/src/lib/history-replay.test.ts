import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/protocol/agent-event'
import { emptyTranscript, reduce } from '../features/chat/reducer'
import { historyToReplay, timedReplay } from './history-replay'

const base = { sessionId: 's', agentId: 'main' }

describe('historyToReplay', () => {
  it("puts each reply's text before the tool calls streamed with it, so the chat draws it", () => {
    const stored: AgentEvent[] = [
      { ...base, type: 'turn_start', turnId: 't1', prompt: 'Look' },
      { ...base, type: 'tool_use_start', toolUseId: 'u1', name: 'Read' },
      { ...base, type: 'assistant_message', text: 'Let me look.', stopReason: 'tool_use' },
      { ...base, type: 'tool_end', toolUseId: 'u1', name: 'Read', isError: false, content: 'file' },
      { ...base, type: 'assistant_message', text: 'Done.', stopReason: 'end_turn' },
      { ...base, type: 'turn_end', reason: 'completed' },
    ]
    const replay = historyToReplay(stored)
    expect(replay.map((e) => e.type)).toEqual([
      'turn_start',
      'text_delta',
      'tool_use_start',
      'assistant_message',
      'tool_end',
      'text_delta',
      'assistant_message',
      'turn_end',
    ])
    const transcript = replay.reduce(reduce, emptyTranscript)
    expect(transcript.turns[0]?.blocks.map((b) => b.kind)).toEqual(['text', 'tool', 'text'])
  })
})

describe('timedReplay', () => {
  it('keeps each event’s time, the text put first taking its message’s', () => {
    const stored: AgentEvent[] = [
      { ...base, type: 'turn_start', turnId: 't1', prompt: 'Look' },
      { ...base, type: 'tool_use_start', toolUseId: 'u1', name: 'Read' },
      { ...base, type: 'assistant_message', text: 'Let me look.', stopReason: 'tool_use' },
      { ...base, type: 'turn_end', reason: 'completed' },
    ]
    const replay = timedReplay(stored, [10, 20, 30, 40])
    expect(replay.events.map((e) => e.type)).toEqual(['turn_start', 'text_delta', 'tool_use_start', 'assistant_message', 'turn_end'])
    expect(replay.times).toEqual([10, 30, 20, 30, 40])
  })
})
