import { useEffect, useRef } from 'react'

/** A global keyboard shortcut: `mod` is Ctrl, or Cmd on macOS. */
export interface Shortcut {
  key: string
  mod?: boolean
  shift?: boolean
  alt?: boolean
  run(): void
}

/** Whether a key event is `shortcut` (Cmd counts as Ctrl on macOS). Pure. */
export function matches(
  event: Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
  shortcut: Omit<Shortcut, 'run'>,
): boolean {
  const mod = event.ctrlKey || event.metaKey
  if (!!shortcut.mod !== mod || !!shortcut.shift !== event.shiftKey || !!shortcut.alt !== event.altKey)
    return false
  // With Shift held, `key` is the shifted character ("~" for "`"); `code` names the key itself.
  if (shortcut.key === '`') return event.code === 'Backquote'
  // Alt (Option) turns letters into other characters on some layouts; the key's code does not change.
  if (/^[a-z]$/i.test(shortcut.key) && event.code === `Key${shortcut.key.toUpperCase()}`) return true
  return event.key.toLowerCase() === shortcut.key.toLowerCase()
}

/** Listens for the app's shortcuts on the whole window, before the focused control sees them. */
export function useShortcuts(shortcuts: readonly Shortcut[]): void {
  const current = useRef(shortcuts)
  current.current = shortcuts
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const found = current.current.find((shortcut) => matches(event, shortcut))
      if (!found) return
      event.preventDefault()
      event.stopPropagation()
      found.run()
    }
    window.addEventListener('keydown', onKey, true)
    return () => window.removeEventListener('keydown', onKey, true)
  }, [])
}
