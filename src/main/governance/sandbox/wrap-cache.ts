import { getDefaultWritePaths, SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime'
// Not re-exported by the package's index; the same module instance (the package has no exports map).
import { registerCommandText } from '@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-manager.js'
import { delimiter } from 'node:path'
import { processWorkingDirectory } from './library-denies'
import { boundSources, pathsSignature, wrapFingerprint } from './wrap-fingerprint'

/*
 * Reuse of one wrapped command for the next (sandbox-runtime 0.0.83, Linux). The library builds
 * the bubblewrap command afresh for every command: a blocking `which bash`, a ripgrep scan of the
 * process's working directory, the expansion of every pattern and the real path of every policy
 * path, 15–70 ms of each sandboxed Bash call on this machine (bench/gate.bench.ts). The Bash tool
 * wraps the same script every time (the user's command travels in the environment), so what comes
 * out differs between two commands only by the command's id, unless the policy, the library's
 * configuration, the working directory, PATH or the disk changed.
 *
 * A wrap is reused only when all of these are as they were:
 * - the script, the command's whole policy (Sous recomputes it for every command from the files as
 *   they are now: git's files, protected files, placeholders), the library's configuration object
 *   (a denied domain installs a new one), the working directory and PATH;
 * - the disk fingerprint (`wrap-fingerprint.ts`), taken again for every command: the types, modes
 *   and link targets of every policy path and the folders above it, and the listings of the
 *   folders the library expands patterns in or scans for protected names; and what every path the
 *   wrap binds is (its own monitor socket included, which no API names). A `.git`, `.bashrc` or
 *   `.vscode` a command made, a link put in place of a folder, a folder made unreadable: each
 *   changes a listing or a type, and the next command is wrapped afresh (and protected).
 * A wrap is kept for reuse only when its fingerprint was the same before and after the library
 * built it and no other sandboxed command of the process was live or began meanwhile (one changing
 * the disk during the scan could otherwise leave a wrap that saw one state under a fingerprint of
 * another), and when it holds nothing that lives for one command only: no mount point the library
 * made for an absent path (`/dev/null` or its empty folder as a source, removed after the command)
 * and no file of bubblewrap arguments (closed after the command).
 */

/** What one command's wrap follows from besides the disk. */
interface Entry {
  key: string
  library: SandboxRuntimeConfig | undefined
  fingerprint: string
  /** What the wrap binds, and what each of those paths was when it was kept. */
  bound: string[]
  boundSignature: string
  wrapped: string
  /** The id's attribution key as the wrap carries it (raw, and percent-encoded in proxy URLs). */
  attribution: string
}

/** Commands wrapped and not yet ended, process-wide (the library's state is). */
const live = new Set<string>()
/** Wraps begun so far, process-wide: a wrap kept for reuse must have run alone. */
let begun = 0

/** The longest attribution key the library carries (`SANDBOXED_COMMAND_KEY_LENGTH`). */
const KEY_LENGTH = 100

/** One project's last reusable wrap. */
export class WrapCache {
  private entry?: Entry
  /** Commands whose wrap was reused: the library never counted them, so their end is not its business. */
  private readonly reused = new Set<string>()

  constructor(private readonly enabled = true) {}

  /**
   * The wrapped form of `command` under `config` for `commandId`: the last one, re-addressed to
   * this command, when nothing it follows from changed; otherwise what `wrapFresh` (the library's
   * `wrapWithSandbox`) makes, kept for the next command when it may be.
   */
  async wrap(
    command: string,
    config: SandboxRuntimeConfig,
    o: { commandId: string; commandText: string; signal?: AbortSignal },
    wrapFresh = () => SandboxManager.wrapWithSandbox(command, undefined, config, o.signal, { commandId: o.commandId, commandText: o.commandText }),
  ): Promise<string> {
    const key = JSON.stringify([command, config, processWorkingDirectory(), process.env['PATH'] ?? ''])
    const before = this.enabled ? fingerprint(config) : undefined
    const entry = this.entry
    if (entry && before !== undefined && entry.key === key && entry.library === SandboxManager.getConfig() && entry.fingerprint === before && pathsSignature(entry.bound) === entry.boundSignature) {
      o.signal?.throwIfAborted()
      // What the library's own wrap registers, so violations name the user's command.
      registerCommandText(command, { commandId: o.commandId, commandText: o.commandText })
      live.add(o.commandId)
      this.reused.add(o.commandId)
      return readdress(entry.wrapped, entry.attribution, attributionOf(o.commandId))
    }
    const alone = live.size === 0
    const started = ++begun
    const library = SandboxManager.getConfig()
    live.add(o.commandId)
    let wrapped: string
    try {
      wrapped = await wrapFresh()
    } catch (error) {
      live.delete(o.commandId)
      throw error
    }
    const after = before === undefined ? undefined : fingerprint(config)
    // Alone: no other command was live before it began, none began or is live now.
    const keep = alone && started === begun && [...live].every((id) => id === o.commandId) && after === before && after !== undefined && library === SandboxManager.getConfig() && reusable(wrapped, attributionOf(o.commandId))
    const bound = boundSources(wrapped)
    this.entry = keep ? { key, library, fingerprint: after, bound, boundSignature: pathsSignature(bound), wrapped, attribution: attributionOf(o.commandId) } : undefined
    return wrapped
  }

  /** The command ended; call once. True when the library wrapped it, so the library's cleanup is due. */
  ended(commandId: string): boolean {
    live.delete(commandId)
    return !this.reused.delete(commandId)
  }

  /** The command ended or never ran (its cleanup, if any, is {@link ended}'s). */
  left(commandId: string): void {
    live.delete(commandId)
  }
}

/** The disk fingerprint of `config`'s wrap (see `wrap-fingerprint.ts`). */
function fingerprint(config: SandboxRuntimeConfig): string | undefined {
  const sockets = [SandboxManager.getLinuxHttpSocketPath(), SandboxManager.getLinuxSocksSocketPath()].filter((p): p is string => typeof p === 'string')
  const cwd = processWorkingDirectory()
  if (cwd === undefined) return undefined
  return wrapFingerprint({ config, libraryWritable: getDefaultWritePaths(), libraryPaths: sockets, cwd, searchPath: (process.env['PATH'] ?? '').split(delimiter) })
}

/** The attribution key the library derives from a command id (`encodeSandboxedCommand`). */
export function attributionOf(commandId: string): string {
  return Buffer.from(commandId.slice(0, KEY_LENGTH)).toString('base64')
}

/**
 * Whether a wrap can serve another command: nothing in it lives for one command only, and its
 * attribution key is told apart from its percent-encoded form (`=`, `+` or `/` in it), so that
 * each place it appears in can be re-addressed.
 */
function reusable(wrapped: string, attribution: string): boolean {
  if (/--ro-bind \/dev\/null |claude-empty-|srt-args/.test(wrapped)) return false
  return encodeURIComponent(attribution) !== attribution
}

/**
 * `wrapped` with one attribution key replaced by another, in both forms the library writes it
 * (percent-encoded in proxy URLs, raw elsewhere). Base64 is inert to every shell quoting level,
 * and the percent-encoded form always holds a `%` ({@link reusable}), so the quoting around each
 * stays what the library would have written.
 */
export function readdress(wrapped: string, from: string, to: string): string {
  return wrapped.split(encodeURIComponent(from)).join(encodeURIComponent(to)).split(from).join(to)
}
