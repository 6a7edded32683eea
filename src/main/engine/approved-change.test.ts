import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import type { Message, ToolResultBlock } from '../services/model/types'
import { baseParams, ofType, runQuery, scriptedModel, testTool } from '../../../test/support/engine'
import { useModelServer } from '../../../test/model-server/vitest'

// What the user approved in the diff view is what runs: `runAs` swaps the tool, `userNote` reaches the model.
const server = useModelServer()

function lastResult(index: number): ToolResultBlock {
  const messages = server.requests[index]!.body['messages'] as Message[]
  return (messages.at(-1)!.content as ToolResultBlock[])[0]!
}

describe('approved changes', () => {
  it('runs the substitute tool with the approved input and appends the note', async () => {
    const ran: string[] = []
    const edit = testTool('Edit', { run: async (input) => (ran.push(`edit:${input.value}`), { content: 'edited' }) })
    const write = testTool('Write', { run: async (input) => (ran.push(`write:${input.value}`), { content: 'written' }) })
    server.setScenario([toolUseReply('Edit', { value: 'proposed' }, { id: 'toolu_e' }), textReply('noted')])
    const { events, result } = await runQuery(
      baseParams(scriptedModel(server.url), {
        tools: [edit, write],
        canUseTool: async () => ({ behavior: 'allow', runAs: 'Write', updatedInput: { value: 'approved' }, userNote: 'The user changed line 2.' }),
      }),
    )
    expect(result.reason).toBe('completed')
    expect(ran).toEqual(['write:approved'])
    const answer = lastResult(1)
    expect(answer.is_error).toBeUndefined()
    expect(answer.content).toBe('written\n\nThe user changed line 2.')
    // The UI's card keeps the model's tool name.
    expect(ofType(events, 'tool_end')[0]).toMatchObject({ name: 'Edit', content: expect.stringContaining('The user changed line 2.') })
  })

  it('refuses a substitute that does not exist or does not accept the input, without running anything', async () => {
    const ran: string[] = []
    const edit = testTool('Edit', { run: async () => (ran.push('edit'), { content: 'edited' }) })
    server.setScenario([toolUseReply('Edit', { value: 'x' }, { id: 'toolu_e' }), textReply('ok')])
    await runQuery(
      baseParams(scriptedModel(server.url), { tools: [edit], canUseTool: async () => ({ behavior: 'allow', runAs: 'Write', updatedInput: { value: 'y' } }) }),
    )
    expect(ran).toEqual([])
    expect(lastResult(1)).toMatchObject({ is_error: true, content: expect.stringContaining('could not be applied as Write') })
  })

  it('does not append the note to a failed call', async () => {
    const failing = testTool('Write', { run: async () => ({ content: 'Error: disk full', isError: true }) })
    server.setScenario([toolUseReply('Write', { value: 'x' }, { id: 'toolu_w' }), textReply('ok')])
    await runQuery(baseParams(scriptedModel(server.url), { tools: [failing], canUseTool: async () => ({ behavior: 'allow', userNote: 'note' }) }))
    expect(lastResult(1)).toMatchObject({ is_error: true, content: 'Error: disk full' })
  })
})
