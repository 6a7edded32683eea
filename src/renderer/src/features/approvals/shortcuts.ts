/** The subset of a keyboard event the shortcut logic reads (testable without a DOM). */
export interface KeyInfo {
  key: string
  ctrlKey: boolean
  altKey: boolean
  metaKey: boolean
  shiftKey: boolean
  target: EventTarget | null
}

/**
 * Which approval action a key press asks for, if any. Global shortcuts need Ctrl+Alt (so typing
 * can never approve anything); the bare `y` / `n` keys count only inside the panel. Neither acts
 * while focus is in a text field, the diff editor or a terminal: there the keys belong to what is
 * being edited (and on many layouts Ctrl+Alt is AltGr, so Ctrl+Alt+N types a letter such as ń).
 */
export function shortcutAction(event: KeyInfo, where: { global: boolean }): 'approve' | 'reject' | undefined {
  if (isTyping(event.target)) return undefined
  const key = event.key.toLowerCase()
  if (where.global) {
    if (!event.ctrlKey || !event.altKey || event.metaKey || event.shiftKey) return undefined
    return key === 'y' ? 'approve' : key === 'n' ? 'reject' : undefined
  }
  if (event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return undefined
  return key === 'y' ? 'approve' : key === 'n' ? 'reject' : undefined
}

/** `<input>` types that take no text: focus on them is not typing. */
const NON_TEXT_INPUTS = new Set(['button', 'checkbox', 'color', 'file', 'image', 'radio', 'range', 'reset', 'submit'])

/** Whether `target` is (inside) somewhere that takes typed text. */
export function isTyping(target: EventTarget | null): boolean {
  const element = target as {
    tagName?: string
    type?: string
    isContentEditable?: boolean
    closest?: (selector: string) => unknown
  } | null
  if (!element) return false
  if (element.tagName === 'TEXTAREA' || element.isContentEditable) return true
  if (element.tagName === 'INPUT') return !NON_TEXT_INPUTS.has((element.type ?? 'text').toLowerCase())
  // Monaco (the diff's two sides) and xterm keep their own hidden inputs inside these.
  return !!element.closest?.('.monaco-editor, .monaco-diff-editor, .xterm, [role="textbox"]')
}
