import { useProjects } from './store'

/** The open project's name and path, a way to open another, and errors from drops. */
export function ProjectBar() {
  const current = useProjects((state) => state.current)
  const error = useProjects((state) => state.error)
  const choosing = useProjects((state) => state.choosing)
  const setChoosing = useProjects((state) => state.setChoosing)
  const clearError = useProjects((state) => state.clearError)
  if (!current) return null
  return (
    <div className="project-bar">
      <div className="project-bar__what" aria-label="Current project">
        <span className="project-bar__name">{current.name}</span>
        <span className="project-bar__path" title={current.path}>
          {current.path}
        </span>
      </div>
      {!choosing && error && (
        <p className="project-bar__error" role="alert">
          {error}
          <button type="button" className="button button--quiet" onClick={clearError} aria-label="Dismiss error">
            ×
          </button>
        </p>
      )}
      <button type="button" className="button" onClick={() => setChoosing(!choosing)} aria-expanded={choosing}>
        Open another…
      </button>
    </div>
  )
}
