import type { Mark } from '../features/timeline/model'

/**
 * Shows a timeline mark's card in the conversation: scrolls to it and moves focus there (the
 * chat's turns carry `data-turn-id`, its tool cards `data-tool-use-id`, both focusable). The
 * shell joins the two features here: neither imports the other. False when the card is not on
 * screen (a turn of another session, a replay before the step).
 */
export function focusCard(target: Mark['target']): boolean {
  const log = document.querySelector('[role="log"][aria-label="Conversation"]')
  if (!log) return false
  const selector = target.toolUseId !== undefined ? `[data-tool-use-id="${CSS.escape(target.toolUseId)}"]` : target.turnId !== undefined ? `[data-turn-id="${CSS.escape(target.turnId)}"]` : undefined
  const card = selector ? log.querySelector<HTMLElement>(selector) : null
  if (!card) return false
  card.scrollIntoView({ block: 'center' })
  card.focus({ preventScroll: true })
  return true
}
