import { describe, expect, it } from 'vitest'
import { NodePtyService } from '../pty/node-pty-service'
import { createCoreTools } from './registry'

/**
 * What the model sees of every tool. A change here changes the model's contract (and Claude Code
 * compatibility): update the snapshot only on purpose (`npx vitest run -u`).
 */
describe('core tool schemas', () => {
  const tools = createCoreTools({ pty: new NodePtyService() })

  it('have unique names', () => {
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length)
  })

  it('match the snapshot', () => {
    const schemas = tools.map((tool) => ({ name: tool.name, input_schema: tool.jsonSchema }))
    expect(schemas).toMatchSnapshot()
  })

  it('have descriptions', () => {
    for (const tool of tools) expect(tool.description.length).toBeGreaterThan(50)
  })
})
