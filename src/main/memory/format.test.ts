import { describe, expect, it } from 'vitest'
import { loadYaml, parseMemory, serializeMemory, simpleFrontmatter } from './format'

const canonical = `---
name: Use pnpm
description: "The user wants pnpm, not npm: scripts run faster"
type: feedback
---

Run every script with pnpm.

**Why:** the lockfile is pnpm's; npm rewrote it twice.
**How to apply:** \`pnpm test\`, \`pnpm run build\`; never \`npm install\`.
`

describe('memory file format', () => {
  it('round-trips a file byte for byte, and fields through text', async () => {
    const yaml = await loadYaml()
    const parsed = parseMemory(canonical, yaml)
    expect(parsed.problems).toEqual([])
    expect(parsed.fields.name).toBe('Use pnpm')
    expect(parsed.fields.description).toBe('The user wants pnpm, not npm: scripts run faster')
    expect(parsed.fields.type).toBe('feedback')
    expect(parsed.fields.body.startsWith('Run every script')).toBe(true)
    expect(serializeMemory(parsed.fields, parsed.extra, yaml)).toBe(canonical)
    const again = parseMemory(serializeMemory(parsed.fields, parsed.extra, yaml), yaml)
    expect(again.fields).toEqual(parsed.fields)
  })

  it('quotes what YAML would misread, never folds a long description, keeps other keys', async () => {
    const yaml = await loadYaml()
    const fields = { name: '#1: [draft] notes', description: `x: ${'long '.repeat(40)}`.trim(), type: 'project', body: 'Freeze starts 2026-03-05.' }
    const text = serializeMemory(fields, { origin: 'claude', tags: ['a'] }, yaml)
    expect(text.split('\n').filter((line) => line.startsWith('description:'))).toHaveLength(1)
    const back = parseMemory(text, yaml)
    expect(back.fields).toEqual(fields)
    expect(back.extra).toEqual({ origin: 'claude', tags: ['a'] })
    expect(back.problems).toEqual([])
  })

  it('reads CRLF files and a byte-order mark', async () => {
    const yaml = await loadYaml()
    const parsed = parseMemory(`\uFEFF${canonical.replace(/\n/g, '\r\n')}`, yaml)
    expect(parsed.problems).toEqual([])
    expect(parsed.fields.name).toBe('Use pnpm')
  })

  it.each([
    ['no frontmatter', '# Debugging notes\n\nUse --inspect.', 'no frontmatter'],
    ['an unclosed frontmatter', '---\nname: x\n', 'never closed'],
    ['invalid YAML', '---\nname: [oops\n---\nbody', 'not valid YAML'],
    ['a list for frontmatter', '---\n- a\n- b\n---\nbody', 'key: value'],
    ['an unknown type', '---\nname: a\ndescription: b\ntype: preference\n---\nbody', 'type must be one of'],
    ['a two-line description', '---\nname: a\ndescription: |\n  one\n  two\ntype: user\n---\nbody', 'one line'],
    ['a nested name', '---\nname: {a: 1}\ndescription: d\ntype: user\n---\nbody', 'name must be text'],
    ['feedback without why', '---\nname: a\ndescription: d\ntype: feedback\n---\nDo it.\n**How to apply:** always', '**Why:**'],
    ['an empty body', '---\nname: a\ndescription: d\ntype: user\n---\n', 'body is empty'],
  ])('reports %s with its problem instead of throwing', async (_label, text, problem) => {
    const parsed = parseMemory(text, await loadYaml())
    expect(parsed.problems.map((entry) => entry.message).join(' ')).toContain(problem)
  })
})

describe('the fast path for plain frontmatter', () => {
  it.each([
    'name: Use pnpm',
    'description: What module 12 does with service 3 (note 12)',
    'type: feedback',
    'name: Ünïcode — dashes, commas, and (parentheses)',
    'name: a-b_c.d/e',
    'name: ends with spaces   ',
  ])('reads %j exactly as YAML does', async (line) => {
    const yaml = await loadYaml()
    expect(simpleFrontmatter([line])).toEqual(yaml.parse(line))
  })

  it.each([
    'name: "quoted"',
    "name: 'quoted'",
    'name: [list]',
    'name: {map: 1}',
    'name: a: b',
    'name: a # comment',
    'name: 123',
    'name: 1st place',
    'name: true',
    'name: null',
    'name: ~',
    'name: .5',
    'name: -dash first',
    'name: *alias',
    'name: |',
    'name:',
    '  indented: x',
    '- item',
  ])('leaves %j to the YAML library', (line) => {
    expect(simpleFrontmatter([line])).toBeUndefined()
  })

  it('leaves duplicate keys to the library (which reports them)', () => {
    expect(simpleFrontmatter(['name: a', 'name: b'])).toBeUndefined()
  })
})
