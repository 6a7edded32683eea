import { canonicalMode, type PermissionModeId } from '../shared/permission-modes'

/** What `sous host` accepts. */
export interface HostArgs {
  /** Who sends the model requests: the local Sous (`relay`, the default) or this machine (`own`). */
  model: 'relay' | 'own'
  /** Driven by `sous -p --remote`: asks become denials; the folder's configuration is obeyed as `-p` obeys it. */
  unattended: boolean
  permissionMode?: PermissionModeId
  /**
   * `stdio`: this process is the pipe to the long-lived host (started when none runs; see
   * host-daemon.ts); `inline`: this process is the host and ends with the pipe (`--no-daemon`);
   * `daemon`: the long-lived host itself (started by the connector).
   */
  mode: 'stdio' | 'inline' | 'daemon'
}

const USAGE = 'Usage: sous host --stdio [--no-daemon] [--own-model-key] [--unattended [--permission-mode MODE]]'

/** Parses the arguments after `host`. Pure. */
export function parseHostArgs(argv: readonly string[]): { ok: true; args: HostArgs } | { ok: false; message: string } {
  const args: HostArgs = { model: 'relay', unattended: false, mode: 'stdio' }
  let stdio = false
  let inline = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg === '--stdio') stdio = true
    else if (arg === '--no-daemon') inline = true
    else if (arg === '--daemon') args.mode = 'daemon'
    else if (arg === '--own-model-key') args.model = 'own'
    else if (arg === '--unattended') args.unattended = true
    else if (arg === '--permission-mode') {
      const mode = canonicalMode(argv[++i] ?? '')
      if (!mode) return { ok: false, message: `--permission-mode needs a mode.\n${USAGE}` }
      args.permissionMode = mode
    } else return { ok: false, message: `Unknown option for host: ${arg}\n${USAGE}` }
  }
  if (args.mode === 'daemon') return { ok: true, args }
  if (!stdio) return { ok: false, message: `sous host speaks over stdin/stdout only: pass --stdio.\n${USAGE}` }
  if (inline) args.mode = 'inline'
  return { ok: true, args }
}
