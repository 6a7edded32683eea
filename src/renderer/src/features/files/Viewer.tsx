import { useEffect, useRef } from 'react'
import { Dialog, DialogHeader } from '../../lib/Dialog'
import { languageFor, loadMonaco } from '../../lib/monaco'
import { ChangesDiff } from './ChangesDiff'
import { useFiles } from './store'

/**
 * The read-only viewer (Monaco) of a project file or a document such as a plan file, or the
 * session's combined diff, as a dialog; Escape closes it.
 */
export function Viewer({ dark, fontSize }: { dark: boolean; fontSize: number }) {
  const viewing = useFiles((state) => state.viewing)
  const changes = useFiles((state) =>
    viewing?.kind === 'changes' ? state.changes[viewing.sessionId] : undefined,
  )
  const close = useFiles((state) => state.close)
  if (!viewing) return null

  const title = viewing.kind === 'changes' ? 'Changes in this session' : viewing.path
  return (
    <Dialog key={title} label={title} className="dialog-frame viewer" onClose={close}>
      <DialogHeader title={title} onClose={close}>
        {viewing.kind !== 'changes' && (
          <span className="status">Read-only{viewing.truncated ? ' · first 1 MB' : ''}</span>
        )}
      </DialogHeader>
      {viewing.kind === 'file' &&
        (viewing.binary ? (
          <p className="viewer__note">A binary file; it is not shown.</p>
        ) : (
          <CodeView path={viewing.path} text={viewing.text} dark={dark} fontSize={fontSize} />
        ))}
      {viewing.kind === 'document' && <CodeView path={viewing.path} text={viewing.text} dark={dark} fontSize={fontSize} />}
      {viewing.kind === 'changes' && <ChangesDiff changes={changes} />}
    </Dialog>
  )
}

/** The file in a read-only Monaco editor (Monaco is fetched on first use, in its own chunk). */
function CodeView({
  path,
  text,
  dark,
  fontSize,
}: {
  path: string
  text: string
  dark: boolean
  fontSize: number
}) {
  const host = useRef<HTMLDivElement>(null)
  useEffect(() => {
    let disposed = false
    let dispose = () => {}
    void loadMonaco().then((monaco) => {
      if (disposed || !host.current) return
      const editor = monaco.editor.create(host.current, {
        value: text,
        language: languageFor(monaco, path),
        readOnly: true,
        domReadOnly: true,
        automaticLayout: true,
        minimap: { enabled: false },
        scrollBeyondLastLine: false,
        fontSize,
        theme: dark ? 'vs-dark' : 'vs',
        ariaLabel: `${path} (read-only)`,
      })
      dispose = () => editor.dispose()
    })
    return () => {
      disposed = true
      dispose()
    }
  }, [path, text, dark, fontSize])
  return <div className="viewer__code" ref={host} />
}
