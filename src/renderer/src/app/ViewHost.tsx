import { Fragment, useEffect } from 'react'
import { ChunkGate } from '../lib/ChunkGate'
import { Dialog, DialogHeader } from '../lib/Dialog'
import { LazyBoundary } from '../lib/LazyBoundary'
import { useOpenDialog } from '../lib/open-dialog'
import type { ShellContext, View } from './shell'

/**
 * Renders the registry's overlays (always mounted) and the one open dialog (mounted while open;
 * a lazy dialog shows nothing until its chunk has arrived, which is a moment on a local host).
 * Opening a dialog runs its `warm` at once: opened before the idle warm-up, its chunk and its data
 * are then fetched side by side rather than the data only once the view has mounted.
 */
export function ViewHost({ views, context }: { views: readonly View[]; context: ShellContext }) {
  const open = useOpenDialog((state) => state.open)
  const closeView = useOpenDialog((state) => state.closeView)
  const dialog = views.find((view) => view.placement === 'dialog' && view.id === open)
  const close = () => dialog && closeView(dialog.id)
  const projectPath = context.project?.path ?? null
  const warm = dialog?.placement === 'dialog' ? dialog.warm : undefined
  useEffect(() => warm?.(projectPath), [warm, projectPath])
  return (
    <>
      {views.map((view) => view.placement === 'overlay' && <Fragment key={view.id}>{view.render(context)}</Fragment>)}
      {dialog?.placement === 'dialog' && (
        <LazyBoundary
          key={dialog.id}
          what={dialog.title}
          renderError={(message) => (
            <Dialog label={dialog.title} className="dialog-frame dialog" onClose={close}>
              <DialogHeader title={dialog.title} onClose={close} />
              <p className="pane__error" role="alert">
                {message}
              </p>
            </Dialog>
          )}
        >
          <ChunkGate chunk={dialog.chunk}>{() => dialog.render({ ...context, close })}</ChunkGate>
        </LazyBoundary>
      )}
    </>
  )
}
