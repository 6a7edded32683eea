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
 * can never approve anything); the bare `y` / `n` keys count only inside the panel and never while
 * typing in a field or in the diff editor.
 */
export function shortcutAction(event: KeyInfo, where: { global: boolean }): 'approve' | 'reject' | undefined {
  const key = event.key.toLowerCase()
  if (where.global) {
    if (!event.ctrlKey || !event.altKey || event.metaKey || event.shiftKey) return undefined
    return key === 'y' ? 'approve' : key === 'n' ? 'reject' : undefined
  }
  if (event.ctrlKey || event.altKey || event.metaKey || event.shiftKey || isTyping(event.target)) return undefined
  return key === 'y' ? 'approve' : key === 'n' ? 'reject' : undefined
}

function isTyping(target: EventTarget | null): boolean {
  const element = target as { tagName?: string; isContentEditable?: boolean; closest?: (selector: string) => unknown } | null
  if (!element) return false
  if (element.tagName === 'INPUT' || element.tagName === 'TEXTAREA' || element.isContentEditable) return true
  return !!element.closest?.('.monaco-editor')
}
