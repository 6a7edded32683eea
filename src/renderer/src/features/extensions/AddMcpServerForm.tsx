import { useId, useState, type FormEvent } from 'react'
import type { RequestInput } from '../../../../shared/ipc/contract'
import { api } from '../../api'

type Transport = 'stdio' | 'http' | 'sse'

/** What is wrong with the form as filled in, before it is sent (the host checks the command). */
export function formProblem(name: string, transport: Transport, command: string, url: string): string | null {
  if (!/^[\w.-]+$/.test(name.trim())) return 'Name: letters, digits, _ . - only.'
  if (transport === 'stdio') return command.trim() ? null : 'Command: what starts the server (a program on PATH, or its path).'
  try {
    const protocol = new URL(url.trim()).protocol
    return protocol === 'http:' || protocol === 'https:' ? null : 'URL: an http:// or https:// address.'
  } catch {
    return 'URL: an http:// or https:// address.'
  }
}

/** Splits the arguments field: one argument per line (so spaces inside an argument need no quoting). */
const argumentsOf = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean)

/**
 * "Add MCP server": a stdio command (with its arguments) or an HTTP / SSE URL, written to the file
 * the user picks — the project's `.mcp.json` (shared with the repository; approved before it first
 * starts, like any project server) or the user's Sous settings. A problem shows under the form and
 * nothing is written; problems show only once the user has tried to add.
 */
export function AddMcpServerForm({ projectPath, onAdded }: { projectPath: string; onAdded(file: string): void }) {
  const id = useId()
  const [name, setName] = useState('')
  const [transport, setTransport] = useState<Transport>('stdio')
  const [command, setCommand] = useState('')
  const [args, setArgs] = useState('')
  const [url, setUrl] = useState('')
  const [target, setTarget] = useState<'project' | 'user'>('project')
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = formProblem(name, transport, command, url)
    setProblem(found)
    if (found) return
    const server: RequestInput<'mcp.add'>['server'] = transport === 'stdio' ? { type: 'stdio', command: command.trim(), args: argumentsOf(args), env: {} } : { type: transport, url: url.trim() }
    setBusy(true)
    const result = await api.invoke('mcp.add', { projectPath, target, name: name.trim(), server })
    setBusy(false)
    if (!result.ok) return setProblem(result.error.message)
    onAdded(result.value.file)
  }

  return (
    <form className="mcp-add" aria-label="Add MCP server" onSubmit={(event) => void submit(event)} noValidate>
      <label>
        <span>Name</span>
        <input className="field field--small" value={name} onChange={(event) => setName(event.target.value)} spellCheck={false} />
      </label>
      <fieldset className="mcp-add__choice">
        <legend>Transport</legend>
        {(['stdio', 'http', 'sse'] as const).map((value) => (
          <label key={value}>
            <input type="radio" name={`${id}-transport`} checked={transport === value} onChange={() => setTransport(value)} />
            {value === 'stdio' ? 'Command (stdio)' : value === 'http' ? 'HTTP' : 'SSE'}
          </label>
        ))}
      </fieldset>
      {transport === 'stdio' ? (
        <>
          <label>
            <span>Command</span>
            <input className="field field--small" value={command} onChange={(event) => setCommand(event.target.value)} spellCheck={false} placeholder="npx" />
          </label>
          <label>
            <span>Arguments (one per line)</span>
            <textarea className="field field--small" rows={2} value={args} onChange={(event) => setArgs(event.target.value)} spellCheck={false} />
          </label>
        </>
      ) : (
        <label>
          <span>URL</span>
          <input className="field field--small" type="url" value={url} onChange={(event) => setUrl(event.target.value)} spellCheck={false} placeholder="https://…" />
        </label>
      )}
      <fieldset className="mcp-add__choice">
        <legend>Write to</legend>
        <label>
          <input type="radio" name={`${id}-target`} checked={target === 'project'} onChange={() => setTarget('project')} />
          This project (<code>.mcp.json</code>)
        </label>
        <label>
          <input type="radio" name={`${id}-target`} checked={target === 'user'} onChange={() => setTarget('user')} />
          All my projects (Sous settings)
        </label>
      </fieldset>
      {problem && (
        <p className="pane__error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className="button button--primary button--small" disabled={busy}>
        Add server
      </button>
    </form>
  )
}
