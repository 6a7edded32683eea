import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import type { Message, ToolResultBlock } from '../main/services/model/types'

// The coordinator's own tools beyond directing workers: it leads and disbands a team
// (TeamCreate/TeamDelete) and hands its final result back as data (StructuredOutput), which ends
// the turn and is the JSON result's `structured_output`, as in Claude Code.
const server = useModelServer()
const headless = useHeadless(server, { inheritPath: true })

const lastResult = (index: number): ToolResultBlock => {
  const messages = server.requests[index]!.body['messages'] as Message[]
  return (messages.at(-1)!.content as ToolResultBlock[])[0]!
}

describe('sous -p --coordinator', () => {
  it('creates and disbands a team, and StructuredOutput ends the turn with the structured result', async () => {
    server.setScenario([
      toolUseReply('TeamCreate', { team_name: 'crew', description: 'a crew' }, { id: 'toolu_team' }),
      toolUseReply('TeamDelete', {}, { id: 'toolu_disband' }),
      toolUseReply('StructuredOutput', { verdict: 'ok', files: 2 }, { id: 'toolu_out' }),
    ])
    const run = await headless.sous(['--coordinator', '--output-format', 'json', 'Report as data.'])
    expect(run.code).toBe(0)
    const result = JSON.parse(run.stdout) as { structured_output?: unknown; terminal_reason: string; num_turns: number }
    expect(result.structured_output).toEqual({ verdict: 'ok', files: 2 })
    expect(result.terminal_reason).toBe('completed')
    // No request after the final output: three replies, three requests.
    expect(server.requests).toHaveLength(3)
    expect(lastResult(1).content).toContain('Team "crew" created')
    expect(lastResult(2).is_error).toBeUndefined()
    expect(existsSync(join(headless.home, '.claude', 'teams', 'crew'))).toBe(false)
  })
})
