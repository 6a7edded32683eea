import { openView } from '../lib/open-dialog'
import { revealSection } from '../state/layout'
import type { View } from './shell'
import { viewCommands } from './view-commands'

/** How long a view that loads lazily may take to show what is to be focused. */
const FOCUS_WAIT_MS = 2000

/**
 * Shows a registered view by id the way its palette command does (a dialog opens, a sidebar view
 * gets the focus); false when this build has no view by that id.
 */
export function showView(views: readonly View[], id: string): boolean {
  const view = views.find((candidate) => candidate.id === id)
  const command = view && viewCommands([view], true, { openDialog: openView, focus: focusWhenShown, reveal: revealSection })[0]
  if (!command) return false
  command.run()
  return true
}

/** Focuses the first element matching `selector` as soon as it is on screen (a lazy dialog may take a moment). */
export function focusWhenShown(selector: string): void {
  const until = performance.now() + FOCUS_WAIT_MS
  const attempt = () => {
    const element = document.querySelector<HTMLElement>(selector)
    if (element) {
      element.focus()
      element.scrollIntoView({ block: 'nearest' })
    } else if (performance.now() < until) requestAnimationFrame(attempt)
  }
  requestAnimationFrame(attempt)
}
