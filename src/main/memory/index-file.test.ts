import { describe, expect, it } from 'vitest'
import { INDEX_MAX_BYTES, INDEX_MAX_LINES } from '../../shared/memory'
import { foreignLines, indexForPrompt, renderIndex, type IndexEntry } from './index-file'

const entry = (index: number, overrides: Partial<IndexEntry> = {}): IndexEntry => ({
  file: `project_note_${String(index).padStart(4, '0')}.md`,
  name: `Note ${index}`,
  description: `What note ${index} is about`,
  type: 'project',
  updatedAt: index,
  ...overrides,
})

describe('MEMORY.md index', () => {
  it('lists one line per memory, by type then name, files with problems last', () => {
    const index = renderIndex([
      entry(1, { type: 'reference', name: 'Dashboards' }),
      entry(2, { type: 'user', name: 'Role' }),
      entry(3, { file: 'debugging.md', name: '', description: '', type: undefined, problem: 'The file has no frontmatter.' }),
      entry(4, { type: 'feedback', name: 'Use pnpm' }),
    ])
    expect(index.text.split('\n')).toEqual([
      '- [Role](project_note_0002.md) — What note 2 is about',
      '- [Use pnpm](project_note_0004.md) — What note 4 is about',
      '- [Dashboards](project_note_0001.md) — What note 1 is about',
      '- [debugging.md](debugging.md) — (not a valid memory: The file has no frontmatter.)',
      '',
    ])
    expect(index).toMatchObject({ lines: 4, listed: 4, omitted: 0 })
  })

  it('keeps to 200 lines, keeping the newest and saying how many are left out', () => {
    const index = renderIndex(Array.from({ length: 1000 }, (_, i) => entry(i)))
    expect(index.lines).toBe(INDEX_MAX_LINES)
    expect(index.omitted).toBe(1000 - (INDEX_MAX_LINES - 1))
    expect(index.text).toContain('Note 999]')
    expect(index.text).not.toContain('Note 0]')
    expect(index.text.trimEnd().split('\n').at(-1)).toMatch(/^- … 801 more memories are not listed here/)
  })

  it('keeps to 25 KB when lines are long', () => {
    const index = renderIndex(Array.from({ length: 150 }, (_, i) => entry(i, { description: 'é'.repeat(120) })))
    expect(index.bytes).toBeLessThanOrEqual(INDEX_MAX_BYTES)
    expect(Buffer.byteLength(index.text)).toBe(index.bytes)
    expect(index.omitted).toBeGreaterThan(0)
    expect(index.listed + index.omitted).toBe(150)
  })

  it('puts a name with brackets and a file with spaces in a valid link', () => {
    const index = renderIndex([entry(1, { name: 'A [b] c', file: 'my notes.md' })])
    expect(index.text).toBe('- [A b c](<my notes.md>) — What note 1 is about\n')
  })

  it('finds the lines of an existing MEMORY.md that the regenerated one would lose', () => {
    const existing = [
      '# Memory',
      '',
      '- [Use pnpm](feedback_use_pnpm.md) — old hook',
      '- [Gone](gone.md) — file deleted since',
      '- [Grafana](https://grafana.example/d/api) — API latency board',
      '- [Escape](../../etc/passwd.md) — not a file of this folder',
      '- The API needs Redis locally',
      '- … 3 more memories are not listed here',
    ].join('\n')
    expect(foreignLines(existing)).toEqual([
      '# Memory',
      '- [Grafana](https://grafana.example/d/api) — API latency board',
      '- [Escape](../../etc/passwd.md) — not a file of this folder',
      '- The API needs Redis locally',
    ])
  })

  it('shows the model only the first 200 lines or 25 KB of an index another tool let grow', () => {
    const long = Array.from({ length: 300 }, (_, i) => `- line ${i}`).join('\n')
    expect(indexForPrompt(long)).toEqual({ text: Array.from({ length: 200 }, (_, i) => `- line ${i}`).join('\n'), cut: true })
    const wide = `${'x'.repeat(20_000)}\n${'y'.repeat(10_000)}`
    expect(indexForPrompt(wide)).toEqual({ text: 'x'.repeat(20_000), cut: true })
    expect(indexForPrompt('- a\n')).toEqual({ text: '- a', cut: false })
  })
})
