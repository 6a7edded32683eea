import { describe, expect, it } from 'vitest'
import { DEFAULT_LAYOUT, chatBounds, clampChat, clampSidebar, parseLayout, shiftWeight, sidebarBounds } from './layout-model'

describe('layout model', () => {
  it('clamps a sidebar saved on a larger screen so two panes still fit beside it', () => {
    expect(clampSidebar(900, 1900)).toBe(520)
    expect(clampSidebar(500, 1000)).toBe(360)
    expect(clampSidebar(40, 1280)).toBe(180)
    expect(sidebarBounds(600)).toEqual({ min: 180, max: 180 })
  })

  it('keeps each side of the chat splitter at least 320 px wide', () => {
    expect(chatBounds(1000)).toEqual({ min: 32, max: 68 })
    expect(clampChat(90, 1000)).toBe(68)
    expect(clampChat(10, 1000)).toBe(32)
    expect(chatBounds(500)).toEqual({ min: 50, max: 50 })
  })

  it('moves weight between two sections without changing their total or leaving the range', () => {
    const moved = shiftWeight(DEFAULT_LAYOUT, 'tasks', 'files', 0.5)
    expect(moved.sections).toEqual({ tasks: { collapsed: false, weight: 1.5 }, files: { collapsed: false, weight: 0.5 } })
    const far = shiftWeight(DEFAULT_LAYOUT, 'tasks', 'files', 10)
    expect(far.sections.tasks!.weight).toBeCloseTo(1.8)
    expect(far.sections.files!.weight).toBeCloseTo(0.2)
  })

  it('reads a saved layout, dropping what is malformed', () => {
    expect(parseLayout(null)).toBe(DEFAULT_LAYOUT)
    expect(parseLayout('{nope')).toBe(DEFAULT_LAYOUT)
    expect(parseLayout('[1]').sidebar).toBe(DEFAULT_LAYOUT.sidebar)
    const parsed = parseLayout(JSON.stringify({ sidebar: 'wide', chat: 70, sections: { tasks: { collapsed: true, weight: 99 }, bad: 3 }, focus: true, diff: { inline: true } }))
    expect(parsed).toEqual({ ...DEFAULT_LAYOUT, chat: 70, sections: { tasks: { collapsed: true, weight: 5 } }, focus: true, diff: { inline: true, wrap: false } })
  })
})
