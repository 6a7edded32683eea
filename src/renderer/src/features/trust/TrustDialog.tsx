import { useEffect, useRef, type ReactNode } from 'react'
import type { TrustStatus } from '../../../../shared/ipc/contract'
import { api } from '../../api'
import { useFocusTrap } from '../../lib/focus-trap'
import '../../lib/dialog.css'
import { describeChanged, folderName } from './describe'
import { useTrust } from './store'
import './trust.css'

/**
 * The trust step: what the open project's own files would change (hooks with their commands,
 * allow rules, extra directories, sandbox and mode settings, MCP servers, agents, skills,
 * commands), and whether to obey them. Asked when a project opens and after each turn (a `git
 * pull` in the terminal may have changed them); reachable any time from the palette.
 */
export function TrustDialog({ projectPath }: { projectPath: string | null }) {
  const { shown, busy, error, check, trust, decline } = useTrust()
  const dialog = useRef<HTMLDivElement>(null)
  useFocusTrap(dialog, shown !== null)

  useEffect(() => {
    if (projectPath) void check(projectPath)
  }, [projectPath, check])
  useEffect(
    () =>
      api.on('agent.event', (event) => {
        // A main agent's turn, not each subagent's: eight workers ending turns would re-read the
        // project's configuration many times a second for one prompt.
        if (event.type === 'turn_end' && !event.parentToolUseId && projectPath) void check(projectPath)
      }),
    [projectPath, check],
  )
  useEffect(() => {
    // Start on the safe choice.
    if (shown) dialog.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus()
  }, [shown])
  if (!shown) return null

  const trusted = shown.state === 'trusted'
  return (
    <div className="dialog-backdrop" onClick={decline}>
      <div
        ref={dialog}
        className="trust dialog-frame"
        role="dialog"
        aria-modal="true"
        aria-labelledby="trust-title"
        aria-describedby="trust-intro"
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault()
            decline()
          }
        }}
      >
        <header className="dialog__header">
          <h2 id="trust-title" className="pane__title">
            Trust the files in {folderName(shown.projectPath)}?
          </h2>
        </header>
        <div className="trust__body">
          <p id="trust-intro">
            {shown.state === 'changed'
              ? `You trusted ${shown.projectPath} before, but ${describeChanged(shown.changed)} changed since. Until you trust it again, the changed configuration is ignored.`
              : trusted
                ? `You trust ${shown.projectPath}: Sous obeys its own configuration below.`
                : `${shown.projectPath} has its own configuration. Sous ignores it until you trust the folder: hooks, allow rules, extra directories, sandbox loosening and MCP servers do nothing. Its deny and ask rules always apply.`}
          </p>
          {shown.problem && (
            <p className="pane__error" role="alert">
              {shown.problem}
            </p>
          )}
          <Summary status={shown} />
          {error && (
            <p className="pane__error" role="alert">
              {error}
            </p>
          )}
        </div>
        <footer className="trust__actions">
          {!trusted && (
            <button
              type="button"
              className="button button--primary"
              disabled={busy}
              onClick={() => void trust()}
            >
              Trust this project
            </button>
          )}
          <button type="button" className="button" data-autofocus onClick={decline}>
            {trusted ? 'Close' : 'Don\u2019t trust'}
          </button>
        </footer>
      </div>
    </div>
  )
}

/** Each part of the configuration as a labelled list; empty parts are left out. */
function Summary({ status }: { status: TrustStatus }) {
  const s = status.summary
  return (
    <>
      <Part
        title="Hooks — commands that run on your computer, outside the sandbox"
        items={s.hooks.map((h) => (
          <>
            <strong>{h.event}</strong>
            {h.matcher ? ` (${h.matcher})` : ''}: <code>{h.command}</code> <File name={h.file} />
          </>
        ))}
      />
      <Part
        title="Allow rules — run without asking"
        items={s.allowRules.map((r) => (
          <>
            <code>{r.rule}</code> <File name={r.file} />
          </>
        ))}
      />
      <Part
        title="Extra directories — treated as part of the project"
        items={s.additionalDirectories.map((d) => (
          <>
            <code>{d.path}</code> <File name={d.file} />
          </>
        ))}
      />
      <Part
        title="Sandbox and permission mode"
        items={s.loosening.map((l) => (
          <>
            <code>
              {l.setting}: {l.value}
            </code>{' '}
            <File name={l.file} />
          </>
        ))}
      />
      <Part
        title="MCP servers — programs started for the agent"
        items={s.mcpServers.map((m) => (
          <>
            <strong>{m.name}</strong>: <code>{m.launch}</code>
          </>
        ))}
      />
      <Part
        title="Agents"
        items={s.agents.map((name) => (
          <code>{name}</code>
        ))}
      />
      <Part
        title="Skills"
        items={s.skills.map((name) => (
          <code>{name}</code>
        ))}
      />
      <Part
        title="Commands"
        items={s.commands.map((name) => (
          <code>/{name}</code>
        ))}
      />
      <Part title="Files that could not be read" items={s.problems.map((problem) => problem)} />
    </>
  )
}

function Part({ title, items }: { title: string; items: ReactNode[] }) {
  if (items.length === 0) return null
  const name = title.split(' — ')[0]
  return (
    <section className="trust__part" aria-label={name}>
      <h3 className="trust__heading">{title}</h3>
      <ul className="trust__list">
        {items.map((item, index) => (
          <li key={index}>{item}</li>
        ))}
      </ul>
    </section>
  )
}

function File({ name }: { name: string }) {
  return <span className="trust__file">{name}</span>
}
