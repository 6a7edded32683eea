import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { useFocusAfterPaint } from '../../lib/use-focus-after-paint'
import { useProjects } from './store'
import { OpenRemoteProject } from './OpenRemoteProject'
import './projects.css'

/** The ways in: type a path, choose a folder (desktop), reopen a recent one, or drop a folder. */
export function OpenProject() {
  const { recent, busy, error, canPick, current, open, pick, loadRecent, setChoosing } = useProjects()
  const [path, setPath] = useState('')
  const inputId = useId()
  const errorId = useId()
  const input = useRef<HTMLInputElement>(null)
  // Not autoFocus: a focus in the commit of the window's first render forces its first layout there.
  useFocusAfterPaint(input)

  useEffect(() => {
    void loadRecent()
  }, [loadRecent])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void open(path)
  }

  // Escape returns to the open project, as closing any panel would.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && current) setChoosing(false)
  }

  return (
    <section className="open-project" aria-label="Open a project" onKeyDown={onKeyDown}>
      <div className="open-project__card">
        <h1 className="open-project__title">Open a project</h1>
        <p className="open-project__hint">Drop a folder anywhere on this window, or type its path.</p>

        <form className="open-project__form" onSubmit={submit}>
          <label htmlFor={inputId} className="visually-hidden">
            Project folder path
          </label>
          <input
            ref={input}
            id={inputId}
            className="field"
            type="text"
            placeholder="/home/you/code/my-app"
            value={path}
            onChange={(event) => setPath(event.target.value)}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          <button type="submit" className="button button--primary" disabled={busy}>
            Open
          </button>
          {canPick && (
            <button type="button" className="button" onClick={() => void pick()} disabled={busy}>
              Choose folder…
            </button>
          )}
        </form>

        {error && (
          <p id={errorId} className="open-project__error" role="alert">
            {error}
          </p>
        )}

        {recent.length > 0 && (
          <nav aria-label="Recent projects" className="open-project__recent">
            <h2>Recent</h2>
            <ul>
              {recent.map((project) => (
                <li key={project.path}>
                  <button
                    type="button"
                    className="recent"
                    onClick={() => void open(project.path)}
                    disabled={busy}
                    aria-label={`Open ${project.name} (${project.path})`}
                  >
                    <span className="recent__name">{project.name}</span>
                    <span className="recent__path">{project.path}</span>
                  </button>
                </li>
              ))}
            </ul>
          </nav>
        )}

        <OpenRemoteProject />

        {current && (
          <button type="button" className="button button--quiet" onClick={() => setChoosing(false)}>
            Back to {current.name}
          </button>
        )}
      </div>
    </section>
  )
}
