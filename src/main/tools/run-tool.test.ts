import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from './define-tool'
import { ABORTED_MESSAGE, runToolCall } from './run-tool'
import { makeTestWorld } from '../../../test/support/tools'

const echo = defineTool({
  name: 'Echo',
  label: 'Echo',
  description: 'Echoes.',
  input: z.strictObject({ text: z.string(), times: z.number().int().optional() }),
  summarize: (args) => args.text,
  validate: async (args) => (args.text === 'bad' ? 'text must not be "bad".' : undefined),
  async execute(args) {
    if (args.text === 'throw') throw new Error('boom')
    if (args.text === 'hang') return new Promise(() => {})
    return { content: args.text.repeat(args.times ?? 1) }
  },
})

describe('defineTool and runToolCall', () => {
  const world = makeTestWorld()

  it('fills cautious defaults and derives an API schema without $schema', () => {
    expect(echo.isReadOnly({ text: 'x' })).toBe(false)
    expect(echo.isDestructive({ text: 'x' })).toBe(true)
    expect(echo.isConcurrencySafe({ text: 'x' })).toBe(false)
    expect(echo.jsonSchema).not.toHaveProperty('$schema')
    expect(echo.jsonSchema).toMatchObject({ type: 'object', required: ['text'], additionalProperties: false })
  })

  it('runs valid input', async () => {
    expect(await runToolCall(echo, { text: 'ab', times: 2 }, world.ctx())).toEqual({ content: 'abab' })
  })

  it('explains schema errors field by field', async () => {
    const result = await runToolCall(echo, { times: 'two', extra: 1 }, world.ctx())
    expect(result.isError).toBe(true)
    expect(result.content).toBe(
      'InputValidationError: Echo failed due to the following issues:\n' +
        '- The required parameter `text` is missing\n' +
        '- The parameter `times` type is expected as `number` but provided as `string`\n' +
        '- An unexpected parameter `extra` was provided',
    )
  })

  it('returns the tool validate() message and a thrown message without stack', async () => {
    expect(await runToolCall(echo, { text: 'bad' }, world.ctx())).toEqual({ content: 'text must not be "bad".', isError: true })
    const thrown = await runToolCall(echo, { text: 'throw' }, world.ctx())
    expect(thrown).toEqual({ content: 'Error: boom', isError: true })
  })

  it('resolves at once on abort, before or during the call', async () => {
    const controller = new AbortController()
    controller.abort()
    expect((await runToolCall(echo, { text: 'x' }, world.ctx({ signal: controller.signal }))).content).toBe(ABORTED_MESSAGE)
    const later = new AbortController()
    const running = runToolCall(echo, { text: 'hang' }, world.ctx({ signal: later.signal }))
    later.abort()
    expect(await running).toEqual({ content: ABORTED_MESSAGE, isError: true })
  })

  it('waits for the own result of a tool that settles on abort (Agent: its agent has ended by then)', async () => {
    const winding = defineTool({
      name: 'Winding',
      label: 'Winding',
      description: 'Winds down on abort.',
      input: z.strictObject({}),
      summarize: () => 'winding',
      settlesOnAbort: true,
      execute: (_args, ctx) =>
        new Promise((resolve) => {
          const windDown = (): void => void setImmediate(() => resolve({ content: 'wound down', isError: true }))
          if (ctx.signal.aborted) windDown()
          else ctx.signal.addEventListener('abort', windDown, { once: true })
        }),
    })
    const controller = new AbortController()
    const running = runToolCall(winding, {}, world.ctx({ signal: controller.signal }))
    controller.abort()
    expect(await running).toEqual({ content: 'wound down', isError: true })
  })
})
