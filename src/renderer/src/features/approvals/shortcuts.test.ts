import { describe, expect, it } from 'vitest'
import { shortcutAction, type KeyInfo } from './shortcuts'

const key = (k: string, extra: Partial<KeyInfo> = {}): KeyInfo => ({ key: k, ctrlKey: false, altKey: false, metaKey: false, shiftKey: false, target: null, ...extra })

describe('approval shortcuts', () => {
  it('needs Ctrl+Alt from anywhere', () => {
    expect(shortcutAction(key('y'), { global: true })).toBeUndefined()
    expect(shortcutAction(key('y', { ctrlKey: true, altKey: true }), { global: true })).toBe('approve')
    expect(shortcutAction(key('N', { ctrlKey: true, altKey: true }), { global: true })).toBe('reject')
  })

  it('takes bare y / n in the panel, but never while typing', () => {
    expect(shortcutAction(key('y'), { global: false })).toBe('approve')
    expect(shortcutAction(key('n'), { global: false })).toBe('reject')
    expect(shortcutAction(key('y', { target: { tagName: 'TEXTAREA' } as unknown as EventTarget }), { global: false })).toBeUndefined()
    const inEditor = { tagName: 'DIV', closest: (s: string) => (s === '.monaco-editor' ? {} : null) } as unknown as EventTarget
    expect(shortcutAction(key('n', { target: inEditor }), { global: false })).toBeUndefined()
    expect(shortcutAction(key('y', { ctrlKey: true }), { global: false })).toBeUndefined()
  })
})
