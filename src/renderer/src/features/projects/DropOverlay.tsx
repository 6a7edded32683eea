import { useCallback } from 'react'
import { useProjects } from './store'
import { useWindowDrop } from './useWindowDrop'

/** Listens for folder drops anywhere on the window and shows a calm overlay while dragging. */
export function DropOverlay() {
  const open = useProjects((state) => state.open)
  const fail = useProjects((state) => state.fail)
  const onPath = useCallback((path: string) => void open(path), [open])
  const onNoPath = useCallback(
    () => fail('That drop did not say where the folder is. Drop a folder from your file manager, or type its path.'),
    [fail],
  )
  const dragging = useWindowDrop(onPath, onNoPath)
  if (!dragging) return null
  return (
    <div className="drop-overlay" aria-hidden="true">
      <div className="drop-overlay__label">Drop a folder to open it</div>
    </div>
  )
}
