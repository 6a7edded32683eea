import { useEffect, useRef, useState } from 'react'
import type { ProjectSettingsName, SettingsProblem } from '../../../../shared/ipc/contract'
import { api } from '../../api'
import { SettingsWarnings } from './SettingsWarnings'

interface FileState {
  name: ProjectSettingsName
  path: string
  text: string
  saved: string
  /** Valid settings that will not do what they say (as of the last read or save). */
  warnings: SettingsProblem[]
}

/** The project's `.claude/settings*.json`, editable; an invalid text is not saved and the editor jumps to the broken line. */
export function ProjectSettingsEditor({ projectPath }: { projectPath: string }) {
  const [files, setFiles] = useState<FileState[]>([])
  const [selected, setSelected] = useState<ProjectSettingsName>('settings.json')
  const [problem, setProblem] = useState<SettingsProblem | null>(null)
  const [status, setStatus] = useState<string>('')
  const area = useRef<HTMLTextAreaElement>(null)

  useEffect(() => {
    void api.invoke('projectSettings.read', { projectPath }).then((result) => {
      if (result.ok)
        setFiles(result.value.map((f) => ({ name: f.name, path: f.path, text: f.text, saved: f.text, warnings: f.warnings ?? [] })))
      else setStatus(`Could not read the project's settings: ${result.error.message}`)
    })
  }, [projectPath])

  const file = files.find((f) => f.name === selected)
  const save = async () => {
    if (!file) return
    const result = await api.invoke('projectSettings.write', {
      projectPath,
      name: file.name,
      text: file.text,
    })
    if (!result.ok) return setStatus(`Not saved: ${result.error.message}`)
    if (!result.value.saved && result.value.problem) {
      const found = result.value.problem
      setProblem(found)
      setStatus('')
      // Put the caret on the broken spot so the user sees it at once.
      const offset = offsetOf(file.text, found.line, found.column)
      area.current?.focus()
      area.current?.setSelectionRange(offset, offset)
      return
    }
    setProblem(null)
    const warnings = result.value.warnings ?? []
    setFiles((all) => all.map((f) => (f.name === file.name ? { ...f, saved: f.text, warnings } : f)))
    setStatus(`Saved ${file.path}.`)
  }

  return (
    <fieldset className="settings__group">
      <legend>Project settings</legend>
      <div role="tablist" aria-label="Project settings files" className="settings__files">
        {files.map((f) => (
          <button
            key={f.name}
            type="button"
            role="tab"
            aria-selected={f.name === selected}
            className={`button button--small${f.name === selected ? ' button--primary' : ''}`}
            onClick={() => {
              setSelected(f.name)
              setProblem(null)
              setStatus('')
            }}
          >
            .claude/{f.name}
            {f.text !== f.saved ? ' •' : ''}
          </button>
        ))}
      </div>
      {file && (
        <>
          <textarea
            ref={area}
            className="field settings__json"
            aria-label={`.claude/${file.name}`}
            aria-invalid={problem ? true : undefined}
            spellCheck={false}
            value={file.text}
            placeholder="{ }"
            onChange={(event) => {
              const text = event.target.value
              setFiles((all) => all.map((f) => (f.name === file.name ? { ...f, text } : f)))
            }}
          />
          {problem && (
            <p className="pane__error" role="alert">
              Line {problem.line}, column {problem.column}: {problem.message}
            </p>
          )}
          <SettingsWarnings warnings={file.warnings} />
          <div className="settings__row">
            <button type="button" className="button" onClick={() => void save()}>
              Save .claude/{file.name}
            </button>
            <span role="status" className="status">
              {status}
            </span>
          </div>
        </>
      )}
    </fieldset>
  )
}

/** The character offset of a 1-based line and column. */
function offsetOf(text: string, line: number, column: number): number {
  let offset = 0
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset)
    if (next === -1) return text.length
    offset = next + 1
  }
  return Math.min(text.length, offset + column - 1)
}
