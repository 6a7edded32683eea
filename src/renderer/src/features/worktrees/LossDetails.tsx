import type { WorktreeLoss } from '../../../../shared/ipc/contract'

/**
 * Exactly what removing a worktree would lose, as the core listed it: the uncommitted files and
 * the commits its base does not have. Shown before any forced removal.
 */
export function LossDetails({ loss, label }: { loss: WorktreeLoss; label: string }) {
  return (
    <div className="worktrees__loss" role="group" aria-label={label}>
      <p role="alert">Refused: the worktree holds {loss.summary}.</p>
      {loss.uncommitted.length > 0 && (
        <>
          <h4>Uncommitted files</h4>
          <ul aria-label="Uncommitted files that would be lost">
            {loss.uncommitted.map((file) => (
              <li key={file}>
                <code>{file}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      {loss.commits.length > 0 && (
        <>
          <h4>Commits not in the base</h4>
          <ul aria-label="Commits that would be lost">
            {loss.commits.map((commit) => (
              <li key={commit.sha}>
                <code>{commit.sha.slice(0, 8)}</code> {commit.subject}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
