import { describe, expect, it } from 'vitest'
import { isTyping, shortcutAction, type KeyInfo } from './shortcuts'

const key = (k: string, extra: Partial<KeyInfo> = {}): KeyInfo => ({ key: k, ctrlKey: false, altKey: false, metaKey: false, shiftKey: false, target: null, ...extra })
const at = (element: object): EventTarget => element as unknown as EventTarget
/** An element inside whatever `selector` part names (as Element.closest would find it). */
const inside = (container: string): EventTarget =>
  at({ tagName: 'DIV', closest: (selector: string) => (selector.split(',').some((part) => part.trim() === container) ? {} : null) })
const chord = { ctrlKey: true, altKey: true }

describe('approval shortcuts', () => {
  it('needs Ctrl+Alt from anywhere', () => {
    expect(shortcutAction(key('y'), { global: true })).toBeUndefined()
    expect(shortcutAction(key('y', chord), { global: true })).toBe('approve')
    expect(shortcutAction(key('N', chord), { global: true })).toBe('reject')
    expect(shortcutAction(key('y', { ...chord, target: at({ tagName: 'BUTTON', closest: () => null }) }), { global: true })).toBe('approve')
  })

  it('takes bare y / n in the panel, but never while typing', () => {
    expect(shortcutAction(key('y'), { global: false })).toBe('approve')
    expect(shortcutAction(key('n'), { global: false })).toBe('reject')
    expect(shortcutAction(key('y', { target: at({ tagName: 'TEXTAREA' }) }), { global: false })).toBeUndefined()
    expect(shortcutAction(key('n', { target: inside('.monaco-editor') }), { global: false })).toBeUndefined()
    expect(shortcutAction(key('y', { ctrlKey: true }), { global: false })).toBeUndefined()
  })

  it('leaves Ctrl+Alt+Y / N alone in text fields, the diff editor and terminals', () => {
    for (const target of [
      at({ tagName: 'TEXTAREA' }),
      at({ tagName: 'INPUT', type: 'text' }),
      at({ tagName: 'INPUT', type: 'search' }),
      at({ tagName: 'DIV', isContentEditable: true }),
      inside('.monaco-editor'),
      inside('.monaco-diff-editor'),
      inside('.xterm'),
    ]) {
      expect(shortcutAction(key('y', { ...chord, target }), { global: true })).toBeUndefined()
      expect(shortcutAction(key('n', { ...chord, target }), { global: true })).toBeUndefined()
    }
  })

  it('does not count inputs that take no text as typing', () => {
    expect(isTyping(at({ tagName: 'INPUT', type: 'checkbox' }))).toBe(false)
    expect(isTyping(at({ tagName: 'INPUT', type: 'RADIO' }))).toBe(false)
    expect(isTyping(at({ tagName: 'INPUT' }))).toBe(true)
    expect(isTyping(null)).toBe(false)
  })
})
