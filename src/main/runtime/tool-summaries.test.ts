import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { textReply, toolUseReply, unauthorized } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { promptOf, resultOf, routeByPrompt, useAgentWorld } from '../../../test/support/agents'
import { projectDataDir } from '../base/paths'

// The small model's summaries of long-running calls: a real Bash `sleep` on a PTY runs past the
// (shortened) start, one side request goes to the small model, and its line arrives as a
// `tool_summary` event while the call still runs, priced in the session's spend. A failing small
// model changes nothing about the call or the turn.
vi.setConfig({ testTimeout: 60_000 })
const server = useModelServer()
const world = useAgentWorld(() => server.url)

const SUMMARY_TOKENS = 123_456

async function sleepTurn(summaryStep: ReturnType<typeof textReply>): Promise<{ sessionId: string; messages: Parameters<typeof resultOf>[0] }> {
  mkdirSync(world.home, { recursive: true })
  writeFileSync(join(world.home, 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(sleep *)'] } }))
  await world.restart({ env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, HOME: world.userHome, SOUS_TOOL_SUMMARY_AFTER_MS: '700' } })
  server.setScenario(
    [
      routeByPrompt({
        'Wait for it.': [toolUseReply('Bash', { command: 'sleep 3' }, { id: 'toolu_sleep' }), textReply('Waited.')],
        'Tool: Bash': [summaryStep],
      }),
    ],
    { loop: true },
  )
  const { sessionId } = await world.runtime.sessions.create(world.project)
  const result = await world.runtime.sessions.run(sessionId, 'Wait for it.')
  expect(result.reason).toBe('completed')
  return { sessionId, messages: result.messages }
}

describe('summaries of long-running tool calls', () => {
  it('ask the small model once, after the call ran a while, and show its line while the call runs', async () => {
    const { messages } = await sleepTurn(textReply('Sleeping for three seconds\nignored second line', { usage: { input_tokens: SUMMARY_TOKENS, output_tokens: 0 } }))
    const asks = server.requests.filter((request) => promptOf(request).startsWith('Tool: Bash'))
    expect(asks).toHaveLength(1)
    expect(asks[0]!.model).toBe('claude-haiku-4-5')
    expect(promptOf(asks[0]!)).toContain('What it was asked: sleep 3')
    const order = world.events.filter((event) => 'toolUseId' in event && event.toolUseId === 'toolu_sleep').map((event) => event.type)
    expect(order.indexOf('tool_summary')).toBeGreaterThan(order.indexOf('tool_state'))
    expect(order.indexOf('tool_summary')).toBeLessThan(order.indexOf('tool_end'))
    expect(world.events.find((event) => event.type === 'tool_summary')).toMatchObject({ toolUseId: 'toolu_sleep', summary: 'Sleeping for three seconds', agentId: 'main' })
    expect(resultOf(messages, 'toolu_sleep')?.is_error).toBeUndefined()
    // Priced in the spend: the project's spend counts the side request's tokens.
    const spend = JSON.parse(readFileSync(join(projectDataDir(world.home, world.project), 'spend.json'), 'utf8')) as { tokens: number }
    expect(spend.tokens).toBeGreaterThanOrEqual(SUMMARY_TOKENS)
  })

  it('change nothing when the small model fails', async () => {
    const { messages } = await sleepTurn(unauthorized())
    expect(server.requests.filter((request) => promptOf(request).startsWith('Tool: Bash'))).toHaveLength(1)
    expect(world.events.some((event) => event.type === 'tool_summary')).toBe(false)
    expect(world.events.some((event) => event.type === 'notice' && event.level === 'error')).toBe(false)
    expect(resultOf(messages, 'toolu_sleep')?.is_error).toBeUndefined()
  })
})
