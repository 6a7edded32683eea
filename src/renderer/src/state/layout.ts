import { create } from 'zustand'
import { DEFAULT_LAYOUT, parseLayout, shiftWeight, sectionOf, type DiffLayout, type Layout } from './layout-model'

/**
 * The workspace layout of this window (pane widths, folded and maximized sidebar sections, focus
 * mode, the wide review, the diff style), remembered in localStorage so a reload or the next start
 * finds it as it was left. Read by the shell's layout and by every diff (approval, *Changes*, the
 * rewind preview), which share one inline/side-by-side and wrap choice.
 */
export const LAYOUT_KEY = 'sous.layout.v1'

function load(): Layout {
  try {
    return parseLayout(globalThis.localStorage?.getItem(LAYOUT_KEY) ?? null)
  } catch {
    // Storage refused (a sandboxed page): the default layout, not remembered.
    return DEFAULT_LAYOUT
  }
}

export const useLayout = create<Layout>()(() => load())

useLayout.subscribe((layout) => {
  try {
    globalThis.localStorage?.setItem(LAYOUT_KEY, JSON.stringify(layout))
  } catch {
    // Not remembered; the layout still works for this page.
  }
})

const set = (change: (layout: Layout) => Partial<Layout>) => useLayout.setState(change)

/** Sets the sidebar width (pixels, clamped where it is drawn). */
export const setSidebarWidth = (sidebar: number) => set(() => ({ sidebar }))
/** Sets the chat's share of the work area (percent, clamped where it is drawn). */
export const setChatShare = (chat: number) => set(() => ({ chat }))
/** Folds or unfolds a sidebar section. */
export const toggleSection = (id: string) =>
  set((layout) => {
    const section = sectionOf(layout, id)
    return { sections: { ...layout.sections, [id]: { ...section, collapsed: !section.collapsed } }, ...(layout.maximized === id && { maximized: null }) }
  })
/** Gives one section the whole sidebar, or gives the others back their room. */
export const toggleMaximized = (id: string) => set((layout) => ({ maximized: layout.maximized === id ? null : id }))
/** Moves weight between two neighbouring open sections. */
export const resizeSections = (before: string, after: string, delta: number) => set((layout) => shiftWeight(layout, before, after, delta))
/** Focus mode: the chat alone. */
export const toggleFocusMode = () => set((layout) => ({ focus: !layout.focus }))
/** Whether a diff under review takes the work area's full width. */
export const setReviewWide = (reviewWide: boolean) => set(() => ({ reviewWide }))
/** How every diff is drawn. */
export const setDiffLayout = (diff: Partial<DiffLayout>) => set((layout) => ({ diff: { ...layout.diff, ...diff } }))
/** Makes a sidebar section visible (unfolded, not behind another's maximize, not in focus mode) before it gets the focus. */
export const revealSection = (id: string) =>
  set((layout) => ({
    focus: false,
    maximized: layout.maximized === id ? id : null,
    sections: { ...layout.sections, [id]: { ...sectionOf(layout, id), collapsed: false } },
  }))
