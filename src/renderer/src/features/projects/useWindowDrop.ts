import { useEffect, useState } from 'react'
import { pathForFile } from '../../api'
import { droppedPath } from '../../lib/drop'

/**
 * Makes the whole window a drop target for folders. Returns whether something is being dragged
 * over it (for the overlay). `onPath` gets the dropped path; `onNoPath` runs for drops that carry
 * none (e.g. a browser drop of a file, whose location the browser hides).
 */
export function useWindowDrop(onPath: (path: string) => void, onNoPath: () => void): boolean {
  const [dragging, setDragging] = useState(false)

  useEffect(() => {
    // dragenter/dragleave fire for every child crossed; a depth counter tells when we truly left.
    let depth = 0
    const carriesDrop = (event: DragEvent) => {
      const types = event.dataTransfer?.types ?? []
      return ['Files', 'text/uri-list', 'text/plain'].some((type) => types.includes(type))
    }
    const onEnter = (event: DragEvent) => {
      if (!carriesDrop(event)) return
      depth++
      setDragging(true)
    }
    const onOver = (event: DragEvent) => {
      if (!carriesDrop(event)) return
      // Without preventDefault the browser refuses the drop (or navigates to the file).
      event.preventDefault()
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy'
    }
    const onLeave = () => {
      depth = Math.max(0, depth - 1)
      if (depth === 0) setDragging(false)
    }
    const onDrop = (event: DragEvent) => {
      depth = 0
      setDragging(false)
      const data = event.dataTransfer
      // A drop a field already took (the composer turns files into @mentions) opens no project.
      if (!data || event.defaultPrevented) return
      // Text dropped into a text field stays ordinary editing; files and file URIs open a project.
      const fromFiles = data.files.length > 0 || data.types.includes('text/uri-list')
      if (!fromFiles && isEditable(event.target)) return
      const path = droppedPath(data, pathForFile)
      event.preventDefault()
      if (path) onPath(path)
      else onNoPath()
    }
    window.addEventListener('dragenter', onEnter)
    window.addEventListener('dragover', onOver)
    window.addEventListener('dragleave', onLeave)
    window.addEventListener('drop', onDrop)
    return () => {
      window.removeEventListener('dragenter', onEnter)
      window.removeEventListener('dragover', onOver)
      window.removeEventListener('dragleave', onLeave)
      window.removeEventListener('drop', onDrop)
    }
  }, [onPath, onNoPath])

  return dragging
}

function isEditable(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA)$/.test(target.tagName))
}
