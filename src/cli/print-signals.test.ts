import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import type { RecordedRequest } from '../../test/model-server/types'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import type { Message, ToolResultBlock } from '../main/services/model/types'

// Signals a headless run must not lose: a saved large result the model is told to read, a
// background command that ends while the model works, and a long job past 100 requests.
const server = useModelServer()

const headless = useHeadless(server)
const sous = (args: string[]) => headless.sous(args)

function lastMessage(request: RecordedRequest): Message {
  return (request.body['messages'] as Message[]).at(-1)!
}

function resultOf(message: Message, id: string): string {
  const block = (message.content as ToolResultBlock[]).find((b) => b.type === 'tool_result' && b.tool_use_id === id)
  const content = block?.content ?? ''
  return typeof content === 'string' ? content : content.map((part) => (part.type === 'text' ? part.text : '')).join('')
}

describe('sous -p keeps every signal', () => {
  it('reads back its own saved large result without asking, in default mode', async () => {
    await writeFile(join(headless.project, 'numbers.txt'), Array.from({ length: 20_000 }, (_, index) => `line ${index + 1}`).join('\n'))
    server.setScenario([
      toolUseReply('Grep', { pattern: 'line', path: join(headless.project, 'numbers.txt'), output_mode: 'content' }, { id: 'toolu_big' }),
      // The model does what the preview says: Read the file it names.
      (request) => {
        const saved = /Full output saved to: (\S+)/.exec(resultOf(lastMessage(request), 'toolu_big'))?.[1]
        return toolUseReply('Read', { file_path: saved ?? 'no-path-given', offset: 19_990, limit: 5 }, { id: 'toolu_read' })
      },
      textReply('Read the end of it.'),
    ])
    const { code, stdout } = await sous(['--output-format', 'json', 'Count'])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({ permission_denials: [] })
    const read = resultOf(lastMessage(server.requests[2]!), 'toolu_read')
    expect(read).toContain('line 19990')
  })

  it('tells the model when a background command ended, on its next request, without polling', async () => {
    server.setScenario([
      // The background command cannot end before the next call lets it, so the news cannot ride
      // on the first request after its launch however slow the machine is.
      toolUseReply('Bash', { command: 'while [ ! -e go ]; do sleep 0.05; done; echo background-done', run_in_background: true }, { id: 'toolu_bg' }),
      // Meanwhile the model works on something that outlasts the background command.
      toolUseReply('Bash', { command: 'touch go; sleep 1' }, { id: 'toolu_wait' }),
      toolUseReply('Bash', { command: 'sleep 1' }, { id: 'toolu_more' }),
      textReply('Both finished.'),
    ])
    const { code } = await sous(['--permission-mode', 'bypassPermissions', 'Run it'])
    expect(code).toBe(0)
    const notified = server.requests.map((request) => JSON.stringify(lastMessage(request)).includes('<task-notification>'))
    // Exactly one request carries the news, in its newest message, and no TaskOutput was needed.
    expect(notified.filter(Boolean)).toHaveLength(1)
    expect(notified.indexOf(true)).toBeGreaterThanOrEqual(2)
    const carrying = JSON.stringify(lastMessage(server.requests[notified.indexOf(true)]!))
    expect(carrying).toContain('<task-id>bash_1</task-id>')
    expect(carrying).toContain('<status>completed</status>')
  })

  it('does not repeat what TaskOutput already showed', async () => {
    server.setScenario([
      toolUseReply('Bash', { command: 'echo quick', run_in_background: true }, { id: 'toolu_bg' }),
      toolUseReply('TaskOutput', { task_id: 'bash_1', block: true, timeout: 10_000 }, { id: 'toolu_out' }),
      toolUseReply('Bash', { command: 'sleep 0.5' }, { id: 'toolu_after' }),
      textReply('Done.'),
    ])
    expect((await sous(['--permission-mode', 'bypassPermissions', 'Run it'])).code).toBe(0)
    expect(resultOf(lastMessage(server.requests[2]!), 'toolu_out')).toContain('completed')
    expect(server.requests.some((request) => JSON.stringify(request.body['messages']).includes('<task-notification>'))).toBe(false)
  })

  it('has no default limit on model requests', async () => {
    await writeFile(join(headless.project, 'a.txt'), 'a\n')
    // A different line each time, so the loop brake (five identical calls in a row) stays out of it.
    const reads = Array.from({ length: 105 }, (_, index) => toolUseReply('Read', { file_path: join(headless.project, 'a.txt'), offset: index + 1 }))
    server.setScenario([...reads, textReply('Read it 105 times.')])
    const { code, stdout } = await sous(['--output-format', 'json', 'Read it many times'])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({ subtype: 'success', num_turns: 106 })
  }, 120_000)
})
