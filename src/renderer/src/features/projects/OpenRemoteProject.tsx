import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { useRemoteProjects } from './remote-store'
import { describeWay, remoteTargetOf, type WayIn } from './remote-target'

/**
 * "Open remote project…": how to get there (ssh, a dev container there or here, a command of the
 * user's), the destination or a name, a folder there (the agent runs on that machine, the window
 * and the key stay here; docs/guide/remote-projects.md), and the remotes opened before.
 */
export function OpenRemoteProject() {
  const { recent, named, busy, error, focusRequested, open, loadRecent } = useRemoteProjects()
  const [destination, setDestination] = useState('')
  const [folder, setFolder] = useState('')
  const [remoteSous, setRemoteSous] = useState('')
  const [way, setWay] = useState<WayIn>('ssh')
  const [command, setCommand] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const destinationRef = useRef<HTMLInputElement>(null)
  const ids = { way: useId(), destination: useId(), folder: useId(), command: useId(), sous: useId(), error: useId() }

  useEffect(() => {
    void loadRecent()
  }, [loadRecent])
  useEffect(() => {
    if (!focusRequested) return
    destinationRef.current?.focus()
    useRemoteProjects.setState({ focusRequested: false })
  }, [focusRequested])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const target = remoteTargetOf({ way, destination, folder, command, named })
    if (typeof target === 'string') return setProblem(target)
    setProblem(null)
    void open({ ...target, ...(remoteSous.trim() && { remoteSous: remoteSous.trim() }) })
  }
  const shown = problem ?? error

  return (
    <section className="open-project__remote" aria-label="Open remote project">
      <h2>Open remote project…</h2>
      <p className="open-project__hint">Over ssh (your ~/.ssh/config, agent and known hosts apply), in a dev container, or through your own command. Sous must be installed there, the same version as here.</p>
      <form className="open-project__form open-project__form--remote" onSubmit={submit}>
        <label htmlFor={ids.way}>Transport</label>
        <select id={ids.way} className="field" value={way} onChange={(event) => setWay(event.target.value as WayIn)}>
          <option value="ssh">ssh</option>
          <option value="devcontainer">Dev container on the ssh host</option>
          <option value="devcontainer-local">Dev container on this machine</option>
          <option value="command">Your own command</option>
          {named.map((entry) => (
            <option key={entry.name} value={`named:${entry.name}`}>
              {`${entry.name} (settings)`}
            </option>
          ))}
        </select>
        {way === 'command' && (
          <>
            <label htmlFor={ids.command}>Transport command</label>
            <input id={ids.command} className="field" type="text" placeholder="kubectl exec -i mypod -- sous" value={command} onChange={(event) => setCommand(event.target.value)} spellCheck={false} autoComplete="off" />
          </>
        )}
        <label htmlFor={ids.destination}>{way === 'command' || way.startsWith('named:') ? 'Name' : 'Destination'}</label>
        <input
          id={ids.destination}
          ref={destinationRef}
          className="field"
          type="text"
          placeholder={way === 'devcontainer-local' ? '(not needed here)' : way === 'command' ? 'pod' : 'devbox or me@10.0.0.5'}
          disabled={way === 'devcontainer-local'}
          value={destination}
          onChange={(event) => setDestination(event.target.value)}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? ids.error : undefined}
        />
        <label htmlFor={ids.folder}>{way.startsWith('devcontainer') ? 'Workspace folder' : 'Folder there'}</label>
        <input id={ids.folder} className="field" type="text" placeholder="/srv/app" value={folder} onChange={(event) => setFolder(event.target.value)} spellCheck={false} autoComplete="off" />
        <details>
          <summary>Command that starts Sous there</summary>
          <label htmlFor={ids.sous}>Remote Sous command</label>
          <input id={ids.sous} className="field" type="text" placeholder="sous" value={remoteSous} onChange={(event) => setRemoteSous(event.target.value)} spellCheck={false} autoComplete="off" />
        </details>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Connecting…' : 'Open remote'}
        </button>
      </form>
      {shown && (
        <p id={ids.error} className="open-project__error" role="alert">
          {shown}
        </p>
      )}
      {recent.length > 0 && (
        <nav aria-label="Recent remotes" className="open-project__recent">
          <ul>
            {recent.map((remote) => (
              <li key={`${describeWay(remote.transport)}:${remote.destination}:${remote.folder}`}>
                <button
                  type="button"
                  className="recent"
                  disabled={busy}
                  aria-label={`Open ${remote.folder} on ${remote.destination} (${describeWay(remote.transport)})`}
                  onClick={() => void open({ destination: remote.destination, folder: remote.folder, ...(remote.remoteSous && { remoteSous: remote.remoteSous }), ...(remote.transport && { transport: remote.transport }) })}
                >
                  <span className="recent__name">{remote.transport && remote.transport.kind !== 'ssh' ? `${remote.destination} · ${describeWay(remote.transport).split(':')[0]}` : remote.destination}</span>
                  <span className="recent__path">{remote.folder}</span>
                </button>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </section>
  )
}
