import { describe, expect, it } from 'vitest'
import { matches } from './useShortcuts'

const key = (over: Partial<KeyboardEvent>) => ({
  key: '',
  code: '',
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...over,
})

describe('shortcut matching', () => {
  it('treats Cmd as Ctrl and needs the exact modifiers', () => {
    const palette = { key: 'p', mod: true, shift: true }
    expect(matches(key({ key: 'P', ctrlKey: true, shiftKey: true }), palette)).toBe(true)
    expect(matches(key({ key: 'P', metaKey: true, shiftKey: true }), palette)).toBe(true)
    expect(matches(key({ key: 'p', ctrlKey: true }), palette)).toBe(false)
    expect(matches(key({ key: 'P', ctrlKey: true, shiftKey: true, altKey: true }), palette)).toBe(false)
  })

  it('recognises the backquote key by its code, whatever Shift makes of it', () => {
    expect(
      matches(key({ key: '~', code: 'Backquote', ctrlKey: true, shiftKey: true }), {
        key: '`',
        mod: true,
        shift: true,
      }),
    ).toBe(true)
  })
})
