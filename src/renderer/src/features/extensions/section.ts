import { create } from 'zustand'

/** The parts of the Extensions view; `/mcp` and `/hooks` open it at theirs. */
export const SECTIONS = [
  { id: 'mcp', title: 'MCP servers' },
  { id: 'skills', title: 'Skills' },
  { id: 'commands', title: 'Commands' },
  { id: 'hooks', title: 'Hooks' },
] as const
export type Section = (typeof SECTIONS)[number]['id']

/**
 * Which section the Extensions view shows. Kept apart from the extensions store (which talks to
 * the API) so commands can pick a section before the view is first loaded.
 */
export const useExtensionsSection = create<{ section: Section; show(section: Section): void }>()((set) => ({
  section: 'mcp',
  show: (section) => set({ section }),
}))
