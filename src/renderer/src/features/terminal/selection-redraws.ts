import type { Terminal } from '@xterm/xterm'

/** The part of xterm's (private) render service this wraps. */
interface SelectionRedraws {
  handleSelectionChanged(start: [number, number] | undefined, end: [number, number] | undefined, columnSelectMode: boolean): void
}

/**
 * Skips xterm's selection redraws that go from no selection to no selection (none at all, or the
 * empty one a click leaves).
 *
 * Why: xterm 6's selection service asks for a selection redraw in every animation frame in which
 * the buffer scrolled, selection or not, and its DOM renderer answers each one by rebuilding every
 * row of the viewport (xterm.js issue 4633, open) — on top of the frame's own render of the rows
 * that changed. While output streams that is every row built twice a frame: in a 20 MB flood
 * (`bench/workspace.bench.ts`) ~140 ms of the renderer's ~1.7 s of main-thread CPU, and the
 * garbage of the second set of rows. A redraw from an empty selection to an empty one changes
 * nothing on screen (the frame's own render draws the new rows), so it is dropped; any redraw
 * with a selection before or after it goes through as it was, so selecting, extending and
 * clearing behave as before.
 *
 * The render service is private to xterm (`_core._renderService`): if a later xterm renames it,
 * nothing is wrapped, the terminal works as xterm ships it, and this returns false (the e2e spec
 * `terminal-flood.spec.ts` counts row rebuilds per frame, so the lost gain shows there).
 * Call after `term.open` (the service exists from then on). Returns whether it was wrapped.
 */
export function skipEmptySelectionRedraws(term: Terminal): boolean {
  const core = (term as unknown as { _core?: { _renderService?: Partial<SelectionRedraws> } })._core
  const service = core?._renderService
  const original = service?.handleSelectionChanged
  if (!service || typeof original !== 'function') return false
  // xterm starts with no selection.
  let hadSelection = false
  service.handleSelectionChanged = function (start, end, columnSelectMode) {
    // A click leaves a selection of no cells (start = end), which draws nothing either.
    const hasSelection = start !== undefined && end !== undefined && (start[0] !== end[0] || start[1] !== end[1])
    if (!hasSelection && !hadSelection) return
    hadSelection = hasSelection
    original.call(this, start, end, columnSelectMode)
  }
  return true
}
