import { useEffect, type KeyboardEvent } from 'react'
import { lookUpWorktree, useWorktreeFacts } from '../../state/worktrees'
import { useProjects } from './store'
import { useRemoteProjects } from './remote-store'

/**
 * Tabs of the open projects, the current one's path, a way to open another, and errors from drops.
 * A project that is a worktree (a worktree session's folder) is named by its worktree and branch.
 */
export function ProjectBar() {
  const current = useProjects((state) => state.current)
  const openProjects = useProjects((state) => state.openProjects)
  // A remote project's tab says when its connection is down (the host is named in its name).
  const connections = useRemoteProjects((state) => state.connections)
  const error = useProjects((state) => state.error)
  const choosing = useProjects((state) => state.choosing)
  const { setChoosing, clearError, activate, closeProject } = useProjects.getState()
  const marks = useWorktreeFacts((state) => state.marks)
  // A worktree's tab restored after a reload: ask once whether (and which) worktree it is.
  useEffect(() => {
    for (const project of openProjects) lookUpWorktree(project.path)
  }, [openProjects])
  if (!current) return null
  const currentWorktree = marks[current.path]

  const onTabKey = (event: KeyboardEvent, index: number) => {
    const move = (to: number) => {
      const target = openProjects[(to + openProjects.length) % openProjects.length]
      if (!target) return
      activate(target.path)
      document.getElementById(projectTabId(target.path))?.focus()
    }
    if (event.key === 'ArrowRight') move(index + 1)
    else if (event.key === 'ArrowLeft') move(index - 1)
    else return
    event.preventDefault()
  }

  return (
    <div className="project-bar">
      <div className="project-tabs" role="tablist" aria-label="Open projects">
        {openProjects.map((project, index) => (
          <div
            key={project.path}
            className={`project-tab${project.path === current.path ? ' project-tab--active' : ''}`}
          >
            <button
              type="button"
              role="tab"
              id={projectTabId(project.path)}
              aria-selected={project.path === current.path}
              tabIndex={project.path === current.path ? 0 : -1}
              className="project-tab__button"
              title={project.path}
              onClick={() => activate(project.path)}
              onKeyDown={(event) => onTabKey(event, index)}
            >
              {marks[project.path] ? marks[project.path]?.name : project.name}
              {marks[project.path] && <span className="project-tab__worktree"> ⑂ {marks[project.path]?.branch}</span>}
              {connections[project.path] && (
                <span className="project-tab__remote" role="status" title={connections[project.path]?.message}>
                  {connections[project.path]?.state === 'lost' ? ' — connection lost' : ' — reconnecting…'}
                </span>
              )}
            </button>
            {openProjects.length > 1 && (
              <button
                type="button"
                className="project-tab__close"
                aria-label={`Close project ${project.name}`}
                onClick={() => closeProject(project.path)}
              >
                ×
              </button>
            )}
          </div>
        ))}
      </div>
      <div className="project-bar__what" aria-label="Current project">
        <span className="visually-hidden">{current.name} </span>
        {currentWorktree && (
          <span className="project-bar__worktree">
            worktree {currentWorktree.name} on branch {currentWorktree.branch} ·{' '}
          </span>
        )}
        <span className="project-bar__path" title={current.path}>
          {current.path}
        </span>
      </div>
      {!choosing && error && (
        <p className="project-bar__error" role="alert">
          {error}
          <button
            type="button"
            className="button button--quiet"
            onClick={clearError}
            aria-label="Dismiss error"
          >
            ×
          </button>
        </p>
      )}
      <button
        type="button"
        className="button"
        onClick={() => setChoosing(!choosing)}
        aria-expanded={choosing}
      >
        Open another…
      </button>
    </div>
  )
}

/** A DOM id for a project's tab. */
export function projectTabId(path: string): string {
  let hash = 0
  for (let i = 0; i < path.length; i++) hash = (hash * 31 + path.charCodeAt(i)) | 0
  return `project-tab-${(hash >>> 0).toString(36)}`
}
