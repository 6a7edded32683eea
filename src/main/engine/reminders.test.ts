import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { ReminderQueue } from '../context/reminders'
import type { Message } from '../services/model/types'
import { baseParams, runQuery, scriptedModel, testTool } from '../../../test/support/engine'

// The loop drains the session's reminder queue into the user message it appends for the next
// request: never into a message already sent, so the cached prefix stays the same bytes.
const server = useModelServer()

function sent(index: number): Message[] {
  return server.requests[index]!.body['messages'] as Message[]
}

/** A message as the API saw it, minus the moving cache breakpoints. */
function bare(message: Message): unknown {
  return JSON.parse(JSON.stringify(message, (key, value: unknown) => (key === 'cache_control' ? undefined : value)))
}

describe('reminders in the loop', () => {
  it('attach to the next user message, persist with it, and never rewrite what was sent', async () => {
    const reminders = new ReminderQueue()
    const work = testTool('Work', { run: async (input) => {
      reminders.push(`finished ${input.value}`, { source: 'test' })
      return { content: `did ${input.value}` }
    } })
    server.setScenario([
      toolUseReply('Work', { value: 'one' }, { id: 'toolu_1' }),
      toolUseReply('Work', { value: 'two' }, { id: 'toolu_2' }),
      textReply('done'),
    ])
    const persisted: Message[] = []
    const { result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [work], reminders, onMessage: (m) => persisted.push(m) }))
    expect(result.reason).toBe('completed')
    const second = sent(1).at(-1)!
    expect(second.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'did one' },
      expect.objectContaining({ type: 'text', text: '<system-reminder>\nfinished one\n</system-reminder>' }),
    ])
    // The third request carries only the newest reminder, and everything before is what was sent.
    const third = sent(2)
    expect(JSON.stringify(third.at(-1))).toContain('finished two')
    expect(JSON.stringify(third.at(-1))).not.toContain('finished one')
    expect(third.slice(0, sent(1).length).map(bare)).toEqual(sent(1).map(bare))
    // What was persisted is what was sent.
    expect(persisted.map(bare)).toEqual(third.slice(1).map(bare).concat([bare(result.messages.at(-1)!)]))
    expect(reminders.size).toBe(0)
  })

  it('wait in the queue when the turn ends without another request', async () => {
    const reminders = new ReminderQueue()
    server.setScenario([textReply('done')])
    reminders.push('too late for this turn', { source: 'test' })
    // The prompt was built before; only messages the loop appends take reminders.
    await runQuery(baseParams(scriptedModel(server.url), { reminders }))
    expect(JSON.stringify(sent(0))).not.toContain('too late')
    expect(reminders.size).toBe(1)
  })
})
