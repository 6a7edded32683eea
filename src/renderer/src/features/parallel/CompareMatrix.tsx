import { memo, useMemo, useState } from 'react'
import type { ChangedFileRow, ParallelRun, TestRunRow } from '../../../../shared/ipc/contract'

/**
 * The compare view: files × sessions — which session changed what (each cell opens that session's
 * diff of the file against its fork point) — and below, the user's test command run in every
 * worktree with its result per session.
 */
export function CompareMatrix(props: {
  run: ParallelRun
  shown: { sessionId: string; path: string } | null
  tests: { command: string; results: TestRunRow[] } | null
  busy: boolean
  onShow(sessionId: string, path: string): void
  onTest(command: string): void
}) {
  const { run, shown, tests, busy, onShow, onTest } = props
  const [command, setCommand] = useState(tests?.command ?? '')
  return (
    <section className="parallel-compare" aria-label="Compare">
      <FilesTable run={run} shown={shown} tests={tests} onShow={onShow} />
      <form
        className="parallel-compare__test"
        onSubmit={(event) => {
          event.preventDefault()
          if (command.trim()) onTest(command.trim())
        }}
      >
        <label>
          Test command{' '}
          <input
            value={command}
            onChange={(event) => setCommand(event.target.value)}
            placeholder="npm test"
            spellCheck={false}
          />
        </label>
        <button type="submit" className="button button--small" disabled={busy || !command.trim()}>
          Run in every worktree
        </button>
        <small>Runs as your own terminal would, in each worktree: your command, not the agent&apos;s.</small>
      </form>
    </section>
  )
}

/** One session's test result: passed or failed with the exit code, its output folded. */
function TestCell({ result, name }: { result: TestRunRow | undefined; name: string }) {
  if (!result) return <span className="parallel-test parallel-test--none">not run</span>
  const passed = result.exitCode === 0
  const verdict = result.timedOut
    ? 'timed out'
    : passed
      ? 'passed'
      : `failed (exit ${result.exitCode ?? '?'})`
  return (
    <details className={`parallel-test parallel-test--${passed ? 'passed' : 'failed'}`}>
      <summary aria-label={`Tests in ${name}: ${verdict}`}>
        {verdict} · {(result.durationMs / 1000).toFixed(1)} s
      </summary>
      <pre aria-label={`Test output of ${name}`}>{result.output}</pre>
    </details>
  )
}

/**
 * The files × sessions table, drawn again only when its rows, the file shown or the test results
 * change (memo): not at every busy line of the view.
 */
const FilesTable = memo(function FilesTable({
  run,
  shown,
  tests,
  onShow,
}: {
  run: ParallelRun
  shown: { sessionId: string; path: string } | null
  tests: { command: string; results: TestRunRow[] } | null
  onShow(sessionId: string, path: string): void
}) {
  const paths = useMemo(
    () => [...new Set(run.sessions.flatMap((session) => session.changed.map((file) => file.path)))].sort(),
    [run],
  )
  const cell = useMemo(() => {
    const map = new Map<string, ChangedFileRow>()
    for (const session of run.sessions)
      for (const file of session.changed) map.set(`${session.sessionId}\0${file.path}`, file)
    return map
  }, [run])
  return (
    <table className="parallel-compare__table" aria-label="Files by session">
      <thead>
        <tr>
          <th scope="col">File</th>
          {run.sessions.map((session) => (
            <th key={session.sessionId} scope="col">
              {session.name}
              <br />
              <small>{session.model}</small>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {paths.length === 0 && (
          <tr>
            <td colSpan={run.sessions.length + 1}>No session has changed a file yet.</td>
          </tr>
        )}
        {paths.map((path) => (
          <tr key={path}>
            <th scope="row">{path}</th>
            {run.sessions.map((session) => {
              const file = cell.get(`${session.sessionId}\0${path}`)
              if (!file)
                return (
                  <td key={session.sessionId} aria-label={`${path} unchanged in ${session.name}`}>
                    —
                  </td>
                )
              const current = shown?.sessionId === session.sessionId && shown.path === path
              return (
                <td key={session.sessionId}>
                  <button
                    type="button"
                    className="button button--small"
                    aria-pressed={current}
                    aria-label={`Diff of ${path} in ${session.name}`}
                    title={file.unsupported}
                    onClick={() => onShow(session.sessionId, path)}
                  >
                    {file.whole ? file.change : `+${file.additions} −${file.deletions}`}
                    {file.hunks > 0 && ` · ${file.hunks} hunk${file.hunks === 1 ? '' : 's'}`}
                  </button>
                </td>
              )
            })}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Tests</th>
          {run.sessions.map((session) => (
            <td key={session.sessionId}>
              <TestCell
                result={tests?.results.find((result) => result.sessionId === session.sessionId)}
                name={session.name}
              />
            </td>
          ))}
        </tr>
      </tfoot>
    </table>
  )
})
