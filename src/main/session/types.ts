/**
 * What the host needs from the session layer. The SessionManager implements it; handlers and
 * the CLI call it. Replies stream out as `agent.event`s on the EventHub, not as return values.
 */
export interface SessionService {
  /** Starts a new conversation in a project; returns its id. */
  create(projectPath: string): Promise<{ sessionId: string }>
  /** Starts a turn. Resolves once the turn is accepted (not when it ends). */
  prompt(sessionId: string, text: string): Promise<void>
  /** Stops the running turn, if any. */
  abort(sessionId: string): Promise<void>
  /** Ends every session; nothing keeps running. */
  dispose(): Promise<void>
}
