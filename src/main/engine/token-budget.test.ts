import { describe, expect, it } from 'vitest'
import { textReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { useAgentWorld } from '../../../test/support/agents'
import type { Message } from '../services/model/types'
import { parseTokenBudget } from './transitions/token-budget'

// Token-budget continuation through the real session and the scripted server: what each request
// carried shows whether the turn went on, and with what reminder.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

const lastUserText = (index: number): string => JSON.stringify((server.requests[index]!.body['messages'] as Message[]).at(-1)!.content)

describe('token-budget continuation', () => {
  it('reads "+500k", "+1.5m" and "use 200k tokens", and nothing else', () => {
    expect(parseTokenBudget('refactor the parser +500k')).toBe(500_000)
    expect(parseTokenBudget('+1.5m go deep')).toBe(1_500_000)
    expect(parseTokenBudget('use 200k tokens on this')).toBe(200_000)
    expect(parseTokenBudget('version 2+3k and a+5k')).toBeUndefined()
    expect(parseTokenBudget('fix the bug')).toBeUndefined()
  })

  it('keeps a turn that would stop under the budget going, with the remaining budget in a reminder, until the work dries up', async () => {
    server.setScenario([
      textReply('First pass.', { usage: { output_tokens: 1000 } }),
      textReply('Second pass.', { usage: { output_tokens: 1000 } }),
      textReply('Nothing more to do.', { usage: { output_tokens: 100 } }),
    ])
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'Review the module +10k')
    expect(result.reason).toBe('completed')
    expect(server.requests).toHaveLength(3)
    expect(lastUserText(1)).toContain("Stopped at 10% of the user's token target (1,000 / 10,000 output tokens). 9,000 tokens of the budget remain")
    expect(lastUserText(2)).toContain('Stopped at 20%')
    expect(server.failures).toEqual([])
  })

  it('stops as usual without a budget', async () => {
    server.setScenario([textReply('Done.', { usage: { output_tokens: 1000 } })])
    const { sessionId } = await world.runtime.sessions.create(world.project)
    expect((await world.runtime.sessions.run(sessionId, 'Review the module')).reason).toBe('completed')
    expect(server.requests).toHaveLength(1)
  })
})
