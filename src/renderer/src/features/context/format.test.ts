import { describe, expect, it } from 'vitest'
import { distance, markers, percent, segments, tokens } from './format'

const breakdown = {
  window: 200_000,
  groups: [
    { id: 'system' as const, label: 'System prompt', tokens: 3_000, items: [] },
    { id: 'instructions' as const, label: 'CLAUDE.md files', tokens: 0, items: [] },
    { id: 'tools' as const, label: 'Tool schemas', tokens: 7_000, items: [] },
    { id: 'messages' as const, label: 'Messages', tokens: 300_000, items: [] },
  ],
  thresholds: { micro: 100_000, autoCompact: 167_000, collapse: 180_000, hardCollapse: 190_000, snipMessages: 400 },
}

describe('context view figures', () => {
  it('draws each non-empty group as a share of the window, never past its end', () => {
    const drawn = segments(breakdown)
    expect(drawn.map((segment) => segment.id)).toEqual(['system', 'tools', 'messages'])
    expect(drawn[1]).toMatchObject({ start: 0.015, width: 0.035 })
    expect(drawn.reduce((sum, segment) => sum + segment.width, 0)).toBeCloseTo(1)
  })

  it('places the thresholds in the order they are reached', () => {
    expect(markers(breakdown).map((marker) => [marker.label, marker.at])).toEqual([
      ['Micro-compaction', 0.5],
      ['Automatic summary', 0.835],
      ['Collapse', 0.9],
      ['Hard collapse', 0.95],
    ])
  })

  it('writes counts, shares and distances for people', () => {
    expect([950, 1_234, 167_000, 1_200_000].map(tokens)).toEqual(['950', '1.2k', '167k', '1.2M'])
    expect(percent(800, 200_000)).toBe('0.4 %')
    expect(percent(76_000, 200_000)).toBe('38 %')
    expect(distance(167_000, 155_000, 'tokens')).toBe('in 12k tokens')
    expect(distance(400, 401, 'messages')).toBe('due before the next request')
    expect(distance(400, 399, 'messages')).toBe('in 1 message')
  })
})
