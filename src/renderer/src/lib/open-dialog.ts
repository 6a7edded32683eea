import { create } from 'zustand'

/**
 * Which dialog view is open (at most one at a time), by the id it has in the shell's view
 * registry (`app/views.tsx`). Features open a view by id without importing the feature that owns
 * it; the shell renders it.
 */
export interface OpenDialogState {
  open: string | null
  openView(id: string): void
  /** Closes `id` if it is the open view (a late close of another view changes nothing). */
  closeView(id: string): void
}

export const useOpenDialog = create<OpenDialogState>()((set, get) => ({
  open: null,
  openView: (id) => set({ open: id }),
  closeView: (id) => {
    if (get().open === id) set({ open: null })
  },
}))

/** Opens a dialog view by id (for handlers outside React: commands, shortcuts). */
export function openView(id: string): void {
  useOpenDialog.getState().openView(id)
}
