import type { ExtensionProblem } from '../../../../shared/ipc/contract'

/** Files or entries that could not be used, each with why: shown, never fatal. */
export function Problems({ problems }: { problems: readonly ExtensionProblem[] }) {
  if (problems.length === 0) return null
  return (
    <section className="extensions__problems" aria-label="Problems">
      <h3 className="extensions__heading">Problems</h3>
      <ul>
        {problems.map((problem, index) => (
          <li key={index}>
            {problem.file && <code className="extensions__file">{problem.file}</code>}
            {problem.server && <code className="extensions__file">{problem.server}</code>} {problem.message}
          </li>
        ))}
      </ul>
    </section>
  )
}
