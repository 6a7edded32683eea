import type { RequestOutput } from '../../shared/ipc/contract'

/** What `settings.apiKeyStatus` reports: presence and protection, never the key. */
export type ApiKeyStatus = RequestOutput<'settings.apiKeyStatus'>

/**
 * Where the Anthropic API key lives. The key itself is read only inside the main process (by
 * whoever builds the model service); the contract only ever sees {@link ApiKeyStatus}.
 */
export interface KeyStore {
  /** Whether a key is present and how it is protected. */
  status(): Promise<ApiKeyStatus>
  /** Stores a key. Throws `AppError('UNAVAILABLE')` when it cannot be stored safely. */
  set(key: string): Promise<void>
  /** The key, for the model service only; `undefined` when none is set. */
  get(): Promise<string | undefined>
}

/** The environment variable both hosts honour, as Claude Code does. */
export const API_KEY_ENV = 'ANTHROPIC_API_KEY'
