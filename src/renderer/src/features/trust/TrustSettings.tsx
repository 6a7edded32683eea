import { useEffect } from 'react'
import { useTrust } from './store'

/**
 * The Settings entry: folders whose own configuration Sous obeys, each revocable, and a review of
 * the open one (`onReview` lets the shell close Settings first: one modal at a time).
 */
export function TrustSettings({
  projectPath,
  onReview,
}: {
  projectPath: string | null
  onReview?: () => void
}) {
  const { trusted, loadTrusted, revoke, review } = useTrust()
  useEffect(() => {
    void loadTrusted()
  }, [loadTrusted])
  return (
    <fieldset className="settings__group" aria-label="Trusted projects">
      <legend>Trusted projects</legend>
      <p className="status">
        Sous obeys the hooks, allow rules, extra directories, sandbox settings and MCP servers of these
        folders.
      </p>
      {trusted.length === 0 ? (
        <p className="status">No folder is trusted.</p>
      ) : (
        <ul className="trust__trusted">
          {trusted.map((folder) => (
            <li key={folder.projectPath} className="settings__row">
              <code className="trust__path">{folder.projectPath}</code>
              <button
                type="button"
                className="button button--small"
                aria-label={`Revoke trust in ${folder.projectPath}`}
                onClick={() => void revoke(folder.projectPath)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {projectPath && (
        <div className="settings__row">
          <button
            type="button"
            className="button button--small"
            onClick={() => {
              onReview?.()
              void review(projectPath)
            }}
          >
            Review project trust…
          </button>
        </div>
      )}
    </fieldset>
  )
}
