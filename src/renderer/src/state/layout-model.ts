/**
 * The workspace layout as plain data, and the rules that keep it usable: the sidebar's width, the
 * chat's share of the work area, which sidebar sections are folded and how much room each open one
 * takes, focus mode, whether a diff under review takes the work area, and how diffs are drawn.
 * Pure functions so the clamping rules are tested on their own; `layout.ts` keeps it in a store.
 *
 * Positions are saved as the user left them and clamped when read against the room there is now,
 * so a layout saved on a larger screen never pushes a pane out of a smaller one.
 */

/** A sidebar section's state: folded to its header line, and its weight among the open ones. */
export interface SectionLayout {
  collapsed: boolean
  weight: number
}

/** How diffs are drawn: two columns or one, and whether long lines wrap. */
export interface DiffLayout {
  inline: boolean
  wrap: boolean
}

export interface Layout {
  /** The sidebar's width in CSS pixels. */
  sidebar: number
  /** The chat's share (percent) of the work area beside the sidebar; the terminals take the rest. */
  chat: number
  sections: Record<string, SectionLayout>
  /** A sidebar section that takes the whole sidebar (the others fold away), if any. */
  maximized: string | null
  /** The chat alone: no sidebar, no terminals. */
  focus: boolean
  /** A diff under review takes the work area's full width (the terminals yield while it is open). */
  reviewWide: boolean
  diff: DiffLayout
}

export const DEFAULT_LAYOUT: Layout = {
  sidebar: 250,
  chat: 50,
  sections: {},
  maximized: null,
  focus: false,
  reviewWide: false,
  diff: { inline: false, wrap: false },
}

/** The narrowest a pane may get (the sidebar, the chat, the terminals). */
export const MIN_SIDEBAR = 180
export const MAX_SIDEBAR = 520
export const MIN_PANE = 320
/** A section's weight range: the smallest still shows a couple of rows beside a heavy one. */
export const MIN_WEIGHT = 0.2
export const MAX_WEIGHT = 5

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), Math.max(low, high))
const finite = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback)

/** The widest the sidebar may be in a workspace `width` pixels wide: two panes of MIN_PANE stay beside it. */
export function sidebarBounds(width: number): { min: number; max: number } {
  return { min: MIN_SIDEBAR, max: Math.max(MIN_SIDEBAR, Math.min(MAX_SIDEBAR, width - 2 * MIN_PANE)) }
}

/** The chat's share range (percent) of a work area `width` pixels wide: each side keeps MIN_PANE. */
export function chatBounds(width: number): { min: number; max: number } {
  if (width <= 2 * MIN_PANE) return { min: 50, max: 50 }
  const min = Math.ceil((MIN_PANE / width) * 100)
  return { min, max: 100 - min }
}

/** The sidebar width to draw in a workspace `width` pixels wide. */
export function clampSidebar(sidebar: number, width: number): number {
  const { min, max } = sidebarBounds(width)
  return Math.round(clamp(sidebar, min, max))
}

/** The chat share to draw in a work area `width` pixels wide. */
export function clampChat(chat: number, width: number): number {
  const { min, max } = chatBounds(width)
  return Math.round(clamp(chat, min, max))
}

/** A section's layout, defaults filled in. */
export function sectionOf(layout: Layout, id: string): SectionLayout {
  return layout.sections[id] ?? { collapsed: false, weight: 1 }
}

/**
 * Moves `delta` weight from section `after` to section `before` (a splitter between them): the
 * pair's total stays the same and neither leaves the weight range.
 */
export function shiftWeight(layout: Layout, before: string, after: string, delta: number): Layout {
  const a = sectionOf(layout, before)
  const b = sectionOf(layout, after)
  const total = a.weight + b.weight
  const next = clamp(a.weight + delta, Math.max(MIN_WEIGHT, total - MAX_WEIGHT), Math.min(MAX_WEIGHT, total - MIN_WEIGHT))
  return { ...layout, sections: { ...layout.sections, [before]: { ...a, weight: next }, [after]: { ...b, weight: total - next } } }
}

/** Reads a saved layout, keeping only what is well formed (a bad or old entry falls back to the default). */
export function parseLayout(text: string | null): Layout {
  if (!text) return DEFAULT_LAYOUT
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return DEFAULT_LAYOUT
  }
  if (!raw || typeof raw !== 'object') return DEFAULT_LAYOUT
  const value = raw as Partial<Record<keyof Layout, unknown>>
  const sections: Record<string, SectionLayout> = {}
  if (value.sections && typeof value.sections === 'object') {
    for (const [id, section] of Object.entries(value.sections as Record<string, unknown>)) {
      if (!section || typeof section !== 'object') continue
      const { collapsed, weight } = section as { collapsed?: unknown; weight?: unknown }
      sections[id] = { collapsed: collapsed === true, weight: clamp(finite(weight, 1), MIN_WEIGHT, MAX_WEIGHT) }
    }
  }
  const diff = (value.diff ?? {}) as { inline?: unknown; wrap?: unknown }
  return {
    sidebar: clamp(finite(value.sidebar, DEFAULT_LAYOUT.sidebar), MIN_SIDEBAR, MAX_SIDEBAR),
    chat: clamp(finite(value.chat, DEFAULT_LAYOUT.chat), 5, 95),
    sections,
    maximized: typeof value.maximized === 'string' ? value.maximized : null,
    focus: value.focus === true,
    reviewWide: value.reviewWide === true,
    diff: { inline: diff.inline === true, wrap: diff.wrap === true },
  }
}
