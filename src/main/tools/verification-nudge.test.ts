import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { resultOf, useAgentWorld } from '../../../test/support/agents'

// The verification nudge through the real runtime and the scripted server: the model creates and
// completes tasks; what the last TaskUpdate answered is read from the conversation.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

async function closeOut(subjects: string[]): Promise<string> {
  const steps = [
    ...subjects.map((subject) => toolUseReply('TaskCreate', { subject, description: subject })),
    ...subjects.map((_, index) => toolUseReply('TaskUpdate', { taskId: String(index + 1), status: 'completed' }, { id: `toolu_done_${index + 1}` })),
    textReply('All done.'),
  ]
  server.setScenario(steps)
  const { sessionId } = await world.runtime.sessions.create(world.project)
  const result = await world.runtime.sessions.run(sessionId, 'Do the three things.')
  expect(result.reason).toBe('completed')
  const content = (id: string) => String(resultOf(result.messages, id)?.content)
  // Only the completion that closes the list may carry it.
  for (let index = 1; index < subjects.length; index++) expect(content(`toolu_done_${index}`)).not.toContain('NOTE:')
  return content(`toolu_done_${subjects.length}`)
}

describe('the verification nudge', () => {
  it('tells the model to verify when three tasks are closed out and none was a verification step', async () => {
    const last = await closeOut(['Add the parser', 'Wire the parser in', 'Update the docs'])
    expect(last).toBe('Updated task #3 status.\n\nNOTE: You just closed out 3 tasks and none of them was a verification step. Before you write your final summary, verify the work: run the tests, the build or the linter the project has (or check the change by hand), and report what you ran and what it showed. If verification is impossible here, say so plainly.')
  })

  it('says nothing when one of the tasks verifies the work', async () => {
    expect(await closeOut(['Add the parser', 'Wire the parser in', 'Run the tests'])).toBe('Updated task #3 status.')
  })

  it('says nothing for fewer than three tasks', async () => {
    expect(await closeOut(['Add the parser', 'Update the docs'])).toBe('Updated task #2 status.')
  })
})
