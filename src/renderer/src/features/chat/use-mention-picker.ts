import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react'
import type { SetText } from './use-draft'
import { useMentions, type MentionCompletion } from './use-mentions'

/** The `@` completion wired to the message box: where the caret is, and what picking does. */
export interface MentionPicker {
  completion: MentionCompletion
  /** Inserts the item (default: the highlighted one) and puts the caret after it. */
  pick(index?: number): void
  /** The caret moved (typing, clicking, selecting). */
  trackCaret(position: number): void
}

/**
 * Completes `@` mentions at the caret of `input`: asks for matches as the mention is typed, keeps
 * the highlighted option in view, and after an insert puts the caret right after the inserted path.
 */
export function useMentionPicker(projectPath: string, text: string, setText: SetText, input: RefObject<HTMLTextAreaElement | null>): MentionPicker {
  const [caret, setCaret] = useState(0)
  // Where the caret goes once an inserted mention is on screen.
  const caretAfter = useRef<number>(undefined)
  const completion = useMentions(projectPath, text, caret)

  useLayoutEffect(() => {
    const at = caretAfter.current
    if (at === undefined || !input.current) return
    caretAfter.current = undefined
    input.current.setSelectionRange(at, at)
    setCaret(at)
  }, [text, input])

  // Arrow keys move the pick; keep it in view in the scrolled list.
  const pickedId = completion.open ? completion.optionId(completion.selected) : undefined
  useEffect(() => {
    if (pickedId) document.getElementById(pickedId)?.scrollIntoView({ block: 'nearest' })
  }, [pickedId])

  return {
    completion,
    pick(index) {
      const next = completion.choose(index)
      if (!next) return
      caretAfter.current = next.caret
      setText(next.text)
    },
    trackCaret: setCaret,
  }
}
