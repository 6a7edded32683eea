import { z } from 'zod'
import { PermissionModeInput } from './modes'

// Its own file (re-exported by settings.ts, so by the contract): the main process reads
// preferences on every start, `sous -p` included, without building the contract's other schemas.

/** Model requests a desktop turn makes before it asks whether to go on (headless has no limit). */
export const DEFAULT_TURN_GUARD = 200

/** Sous's own preferences (stored under the "sous" key of `$SOUS_HOME/settings.json`). */
export const Preferences = z.object({
  baseUrl: z.string().max(2000).optional(),
  model: z.string().max(200).optional(),
  fallbackModel: z.string().max(200).optional(),
  permissionMode: PermissionModeInput.optional(),
  /** Coordinator mode for new sessions: the main agent only directs workers (Agent, SendMessage, TaskStop). */
  coordinator: z.boolean().optional(),
  /** Model requests a desktop turn makes before it asks whether to go on (default {@link DEFAULT_TURN_GUARD}). */
  turnGuard: z.number().int().min(10).max(100_000).optional(),
  theme: z.enum(['light', 'dark', 'system']),
  fontSize: z.number().int().min(9).max(32),
  /** Recall and extraction of memories (default on). */
  autoMemory: z.boolean().optional(),
  /** Where project memories live: Claude Code's auto-memory folder (default) or under `$SOUS_HOME`. */
  memoryLocation: z.enum(['claude', 'sous']).optional(),
  /** Memories the agent writes land at once as undoable changes (default), or wait for approval. */
  memoryWrites: z.enum(['undoable', 'approve']).optional(),
  /** The model that picks memories to recall (default: the small model WebFetch uses). */
  recallModel: z.string().max(200).optional(),
  /**
   * Variables kept out of every child process (Bash, hooks, terminals, MCP servers) besides Sous's
   * own credentials: names or `*` patterns such as `*_TOKEN`.
   */
  secretEnv: z.array(z.string().min(1).max(200)).max(200).optional(),
  /** Variable names passed to children even though they are held back (Sous's own key included). */
  passEnv: z.array(z.string().min(1).max(200)).max(200).optional(),
  /**
   * The user's named transport commands for remote projects ("Open remote project…" lists them):
   * each reaches a Sous elsewhere (`kubectl exec -i mypod -- sous`); Sous appends ` host --stdio`.
   * User preferences only: a project can never name a command this machine runs.
   */
  remoteTransports: z
    .array(z.object({ name: z.string().trim().min(1).max(100).regex(/^[^-\s][^\s]*$/, 'a name without spaces, not starting with "-"'), command: z.string().trim().min(1).max(4000) }).strict())
    .max(50)
    .optional(),
})
export type Preferences = z.infer<typeof Preferences>
