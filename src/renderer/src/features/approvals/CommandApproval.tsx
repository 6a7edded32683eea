import type { ApprovalPreview } from '../../../../shared/ipc/contract'

type CommandPreview = Extract<ApprovalPreview, { kind: 'command' }>

/** What a shell command would do: the simple commands, the paths it touches, and the sandbox. */
export function CommandApproval({ preview }: { preview: CommandPreview }) {
  const commands = preview.commands ?? preview.subcommands ?? []
  const paths = preview.paths ?? []
  return (
    <div className="command-approval">
      <pre className="command-approval__command" aria-label="Command">
        {preview.command}
      </pre>
      {preview.description && <p className="approval__muted">{preview.description}</p>}
      {commands.length > 1 && (
        <section aria-label="Commands it runs">
          <h4 className="approval__subtitle">Runs {commands.length} commands</h4>
          <ol className="command-approval__list">
            {commands.map((command, index) => (
              <li key={index}>
                <code>{command}</code>
              </li>
            ))}
          </ol>
        </section>
      )}
      {paths.length > 0 && (
        <section aria-label="Paths it touches">
          <h4 className="approval__subtitle">Touches</h4>
          <ul className="command-approval__list">
            {paths.map((path, index) => (
              <li key={index}>
                <span className={`tag ${path.write ? 'tag--write' : ''}`}>{path.write ? 'writes' : 'reads'}</span> <code>{path.path}</code>
                {path.realPath && (
                  <>
                    {' '}
                    → <code aria-label="really leads to">{path.realPath}</code>
                  </>
                )}
                {!path.inside && <span className="tag tag--warn">outside the project</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
      <p className={`command-approval__sandbox ${preview.sandboxed ? '' : 'command-approval__sandbox--off'}`} data-testid="sandbox-coverage">
        {preview.sandboxed === true
          ? 'Runs inside the sandbox (writes limited to the project, network filtered).'
          : preview.sandboxed === false
            ? `Runs outside the sandbox${preview.sandboxNote ? `: ${preview.sandboxNote}` : ''}.`
            : 'No sandbox is configured: it runs with your permissions.'}
        {preview.writesOutside && ' It writes outside the project.'}
      </p>
      {preview.problems && preview.problems.length > 0 && (
        <ul className="command-approval__problems" aria-label="Why no rule can approve it">
          {preview.problems.map((problem, index) => (
            <li key={index}>{problem}</li>
          ))}
        </ul>
      )}
    </div>
  )
}
