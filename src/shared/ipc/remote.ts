import { z } from 'zod'
import { Empty } from './common'
import { Project } from './project'

/**
 * How the pipe to `sous host --stdio` is opened (docs/guide/remote-projects.md): the system ssh
 * (the default); a dev container (`devcontainer up`, then `devcontainer exec`), on this machine
 * (`local`) or on the ssh destination's Docker; or the user's own command (`kubectl exec -i pod --
 * sous`), run by `/bin/sh` here with ` host --stdio …` appended.
 */
export const RemoteTransport = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ssh') }).strict(),
  z.object({ kind: z.literal('devcontainer'), local: z.boolean().optional() }).strict(),
  z.object({ kind: z.literal('command'), command: z.string().trim().min(1).max(4000) }).strict(),
])
export type RemoteTransport = z.infer<typeof RemoteTransport>

/** A remote project as the user named it: an ssh destination (or a name) and an absolute folder there. */
export const RemoteTarget = z
  .object({
    /**
     * As ssh takes it (`devbox`, `me@10.0.0.5`, an alias of ~/.ssh/config); never an option. With a
     * user command or a local dev container, only the name the tab and the paths show.
     */
    destination: z.string().trim().min(1).max(300).regex(/^[^-\s][^\s]*$/, 'an ssh destination: no spaces, not starting with "-"'),
    folder: z.string().trim().min(1).max(4096).startsWith('/', 'an absolute folder on that machine'),
    /** The command that starts Sous there (default `sous`). */
    remoteSous: z.string().trim().min(1).max(1000).optional(),
    /** Default: ssh. */
    transport: RemoteTransport.optional(),
  })
  .strict()
export type RemoteTarget = z.infer<typeof RemoteTarget>

/** A remote the user opened, for the recent list. */
export const RecentRemote = RemoteTarget.extend({ openedAt: z.string() })
export type RecentRemote = z.infer<typeof RecentRemote>

/** `remote.*`: projects on other machines (the agent host there over ssh; docs/guide/remote-projects.md). */
export const remoteRequests = {
  /**
   * Connects to the destination (the system ssh, `sous host --stdio` there) and opens the folder
   * there. The project's path is `ssh://<destination><folder>`, its name says the host; every
   * request about it (sessions, files, terminals, approvals) goes to that host from then on.
   */
  'remote.open': { input: RemoteTarget, output: Project },
  /** Remotes opened before, newest first. */
  'remote.recent': { input: Empty, output: z.array(RecentRemote) },
} as const

export const remoteEvents = {
  /** A remote's connection dropped, is reconnecting, came back, or was lost. */
  'remote.connection': z.object({
    destination: z.string(),
    projectPath: z.string(),
    state: z.enum(['connected', 'reconnecting', 'lost']),
    message: z.string().optional(),
  }),
} as const
