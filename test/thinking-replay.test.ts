import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../src/shared/protocol/agent-event'
import { historyToReplay } from '../src/renderer/src/lib/history-replay'
import { emptyTranscript, reduce, type Transcript } from '../src/renderer/src/features/chat/reducer'
import { thinkingReply } from './model-server'
import { useModelServer } from './model-server/vitest'
import { useAgentWorld } from './support/agents'

// A resumed session's chat is redrawn from its stored events (which keep no deltas): its thinking
// must come back folded where it was live, between the prompt and the reply's text and tools.
// Here (under test/) because it joins the main side (a real session through the scripted server)
// and the renderer's reducer, which neither side may import from the other.
const server = useModelServer()
const world = useAgentWorld(() => server.url, { model: 'claude-sonnet-4-6' })

/** The blocks of each turn as the chat draws them (tool cards by name only). */
function drawn(transcript: Transcript): Array<Array<{ kind: string; text?: string }>> {
  return transcript.turns.map((turn) => turn.blocks.map((block) => (block.kind === 'tool' ? { kind: 'tool', text: block.name } : { kind: block.kind, text: block.text })))
}

describe('thinking in a replayed session', () => {
  it('is drawn as it was live, after a restart too', async () => {
    writeFileSync(join(world.project, 'notes.md'), 'remember the blue door\n')
    const live: AgentEvent[] = []
    world.hub.subscribe((channel, payload) => {
      if (channel === 'agent.event') live.push(payload as AgentEvent)
    })
    server.setScenario([
      { reply: { content: [{ type: 'thinking', thinking: 'I should read the notes first.', signature: 'sig-1' }, { type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: join(world.project, 'notes.md') } }] } },
      thinkingReply('The notes say blue door.', 'The door is blue.'),
    ])
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'What colour is the door?')
    expect(result.reason).toBe('completed')
    const liveTranscript = live.filter((event) => event.sessionId === sessionId).reduce(reduce, emptyTranscript)
    expect(drawn(liveTranscript)[0]).toEqual([
      { kind: 'thinking', text: 'I should read the notes first.' },
      { kind: 'text', text: 'Reading.' },
      { kind: 'tool', text: 'Read' },
      { kind: 'thinking', text: 'The notes say blue door.' },
      { kind: 'text', text: 'The door is blue.' },
    ])
    await world.restart()
    const history = await world.runtime.sessions.history(sessionId)
    const replayed = historyToReplay(history.events).reduce(reduce, emptyTranscript)
    expect(drawn(replayed)).toEqual(drawn(liveTranscript))
  })
})
