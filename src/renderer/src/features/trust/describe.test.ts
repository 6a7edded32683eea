import { describe, expect, it } from 'vitest'
import { describeChanged, folderName } from './describe'

describe('trust wording', () => {
  it('names what changed', () => {
    expect(describeChanged(['settings'])).toBe('its settings')
    expect(describeChanged(['settings', 'mcp', 'extensions'])).toBe(
      'its settings, its MCP servers (.mcp.json) and its agents, skills or commands',
    )
  })
  it('names the folder', () => {
    expect(folderName('/home/me/app/')).toBe('app')
    expect(folderName('C:\\work\\site')).toBe('site')
  })
})
