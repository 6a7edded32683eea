import { useEffect, useRef, useState } from 'react'
import type * as Monaco from 'monaco-editor/editor/editor.api'
import { loadMonaco } from '../../lib/monaco'

/**
 * A memory's body in Monaco (Markdown). The editor is made once per memory opened (`identity`);
 * typing reports each change, and a new `value` from outside (the file reloaded from disk)
 * replaces the text only when it differs, so the caret is not reset while the user types.
 */
export function BodyEditor({ identity, value, onChange, dark, fontSize, invalid }: { identity: string; value: string; onChange(value: string): void; dark: boolean; fontSize: number; invalid: boolean }) {
  const host = useRef<HTMLDivElement>(null)
  const editor = useRef<Monaco.editor.IStandaloneCodeEditor | null>(null)
  const latest = useRef({ value, onChange })
  latest.current = { value, onChange }
  const [failed, setFailed] = useState<string | null>(null)

  useEffect(() => {
    let disposed = false
    let dispose = () => {}
    loadMonaco().then(
      (monaco) => {
        if (disposed || !host.current) return
        const created = monaco.editor.create(host.current, {
          value: latest.current.value,
          language: 'markdown',
          automaticLayout: true,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          wordWrap: 'on',
          lineNumbers: 'off',
          fontSize,
          theme: dark ? 'vs-dark' : 'vs',
          ariaLabel: 'Memory body',
        })
        const subscription = created.onDidChangeModelContent(() => {
          const text = created.getValue()
          if (text !== latest.current.value) latest.current.onChange(text)
        })
        editor.current = created
        dispose = () => {
          subscription.dispose()
          created.dispose()
          editor.current = null
        }
      },
      (error: unknown) => setFailed(error instanceof Error ? error.message : String(error)),
    )
    return () => {
      disposed = true
      dispose()
    }
  }, [identity, dark, fontSize])

  useEffect(() => {
    const current = editor.current
    if (current && current.getValue() !== value) current.setValue(value)
  }, [value])

  if (failed) {
    // Without Monaco the body is still editable.
    return <textarea className="field memory-editor__fallback" aria-label="Memory body" value={value} onChange={(event) => onChange(event.target.value)} />
  }
  return <div ref={host} className={`memory-editor__body${invalid ? ' memory-editor__body--invalid' : ''}`} />
}
