import { useCallback, useEffect, useRef, useState } from 'react'
import { loadDraft, saveDraft } from './drafts'

/** Sets the text, as a value or from the current one. */
export type SetText = (next: string | ((current: string) => string)) => void

/**
 * The composer's text, kept per conversation: every change is saved under `draftKey`, and
 * switching to another conversation brings back that one's draft.
 */
export function useDraft(draftKey: string): [string, SetText] {
  const [text, setTextState] = useState(() => loadDraft(draftKey))
  const key = useRef(draftKey)

  useEffect(() => {
    if (key.current === draftKey) return
    key.current = draftKey
    setTextState(loadDraft(draftKey))
  }, [draftKey])

  const setText = useCallback<SetText>((next) => {
    setTextState((current) => {
      const value = typeof next === 'function' ? next(current) : next
      saveDraft(key.current, value)
      return value
    })
  }, [])
  return [text, setText]
}
