import { API_KEY_ENV, type ApiKeyStatus, type KeyStore } from './key-store'

/** Told to the user whenever a key set in the browser host is in use. */
export const MEMORY_KEY_WARNING =
  'The browser host keeps this key in memory for this run only; it is not saved. ' +
  `Set ${API_KEY_ENV} before starting \`sous serve\` to avoid entering it again.`

/**
 * The browser host's key store (`sous serve`, the headless CLI): the key comes from
 * `ANTHROPIC_API_KEY`; `set` keeps a key in memory for this run only and never writes it to disk,
 * and the status says so. A key set here wins over the environment until the process ends.
 */
export class MemoryKeyStore implements KeyStore {
  private key: string | undefined

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  async status(): Promise<ApiKeyStatus> {
    if (this.key) return { present: true, source: 'memory', warning: MEMORY_KEY_WARNING }
    if (this.env[API_KEY_ENV]) return { present: true, source: 'environment' }
    return { present: false, source: 'none' }
  }

  async set(key: string): Promise<void> {
    this.key = key
  }

  async get(): Promise<string | undefined> {
    return this.key ?? (this.env[API_KEY_ENV] || undefined)
  }
}
