import type { HookInfo, HooksOverview } from '../../../../shared/ipc/contract'
import { runOutcome } from './describe'

/**
 * The hook inspector: configured hooks per event, with the file each comes from and whether it
 * runs, then the latest runs (newest first) with their exit code, duration, input and output.
 */
export function HooksSection({ hooks }: { hooks: HooksOverview | null }) {
  if (!hooks) return <p className="extensions__empty">Reading the hooks…</p>
  const events = [...new Set(hooks.hooks.map((hook) => hook.event))]
  return (
    <>
      {hooks.problems.length > 0 && (
        <section className="extensions__problems" aria-label="Problems">
          <h3 className="extensions__heading">Problems</h3>
          <ul>
            {hooks.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </section>
      )}
      {hooks.disabled && <p className="extensions__note">disableAllHooks is set: no hook runs.</p>}
      {events.length === 0 && (
        <p className="extensions__empty">
          No hooks. Add them under <code>hooks</code> in a settings file (Claude Code's format).
        </p>
      )}
      {events.map((event) => (
        <section key={event} className="extensions__event" aria-label={`${event} hooks`}>
          <h3 className="extensions__heading">{event}</h3>
          <ul className="extensions__list">
            {hooks.hooks
              .filter((hook) => hook.event === event)
              .map((hook, index) => (
                <HookRow key={index} hook={hook} />
              ))}
          </ul>
        </section>
      ))}
      <section aria-label="Hook runs">
        <h3 className="extensions__heading">Latest runs</h3>
        {hooks.runs.length === 0 ? (
          <p className="extensions__empty">No hook has run in this project since Sous started.</p>
        ) : (
          <ol className="extensions__list" reversed>
            {[...hooks.runs].reverse().map((run) => (
              <li key={`${run.at}-${run.command}-${run.event}`} className="extensions__item" aria-label={`Run of ${run.event} hook`}>
                <div className="extensions__line">
                  <strong>{run.event}</strong>
                  <code>{run.command}</code>
                  <span className={run.exitCode === 0 ? 'extensions__ok' : 'extensions__bad'}>{runOutcome(run)}</span>
                  <span className="extensions__meta">
                    {run.durationMs} ms · {new Date(run.at).toLocaleTimeString()}
                  </span>
                </div>
                {run.source && <p className="extensions__file">{run.source}</p>}
                <Output label="Output" text={run.stdout} />
                <Output label="Errors" text={run.stderr} />
                <details className="extensions__log">
                  <summary>Input</summary>
                  <pre>{run.input}</pre>
                </details>
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  )
}

function HookRow({ hook }: { hook: HookInfo }) {
  return (
    <li className="extensions__item">
      <div className="extensions__line">
        {hook.matcher && <span className="extensions__hint">{hook.matcher}</span>}
        <code>{hook.command}</code>
        <span className={hook.applies ? 'extensions__ok' : 'extensions__bad'}>{hook.applies ? 'runs' : `does not run: ${hook.reason ?? ''}`}</span>
      </div>
      <p className="extensions__file">
        {hook.source} settings{hook.file ? ` · ${hook.file}` : ''}
      </p>
    </li>
  )
}

function Output({ label, text }: { label: string; text: string }) {
  if (!text) return null
  return (
    <div className="extensions__output">
      <span className="extensions__meta">{label}</span>
      <pre aria-label={label}>{text}</pre>
    </div>
  )
}
