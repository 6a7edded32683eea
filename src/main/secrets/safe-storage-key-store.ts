import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError } from '../../shared/ipc/result'
import { writeFileAtomic } from '../base/atomic-write'
import { API_KEY_ENV, type ApiKeyStatus, type KeyStore } from './key-store'

/**
 * The part of Electron's `safeStorage` we use — only the async API (the sync one is deprecated).
 * Declared here so this folder never imports electron; `src/main/app` passes the real module.
 */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>
  encryptStringAsync(plainText: string): Promise<Buffer>
  decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>
  /** Linux only; `basic_text` means the "encryption" uses a hard-coded password. */
  getSelectedStorageBackend?(): string
}

/** Shown when Linux has no real secret service and safeStorage falls back to `basic_text`. */
export const BASIC_TEXT_WARNING =
  'No system keyring was found (Electron safeStorage uses its "basic_text" backend), so the stored key ' +
  'is only obfuscated, not protected. Install and unlock a keyring (GNOME Keyring, KWallet) or use ' +
  `${API_KEY_ENV} instead.`

/**
 * The desktop key store: the key is encrypted with the OS keychain through Electron's safeStorage
 * (Keychain on macOS, DPAPI on Windows, libsecret/kwallet on Linux) and only the ciphertext is
 * written, to `$SOUS_HOME/credentials/anthropic-api-key.bin` (mode 0600, atomic).
 *
 * Precedence: a stored key wins over `ANTHROPIC_API_KEY` (the user chose it in the app).
 * A ciphertext that no longer decrypts (keychain reset) counts as absent, with a warning.
 */
export class SafeStorageKeyStore implements KeyStore {
  readonly file: string

  constructor(
    sousHome: string,
    private readonly safeStorage: SafeStorageLike,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {
    this.file = join(sousHome, 'credentials', 'anthropic-api-key.bin')
  }

  async status(): Promise<ApiKeyStatus> {
    const stored = await this.readStored()
    const backendWarning = this.backendWarning()
    if (stored.key) return { present: true, source: 'keychain', ...(backendWarning ? { warning: backendWarning } : {}) }
    const warning = stored.warning
    if (this.env[API_KEY_ENV]) return { present: true, source: 'environment', ...(warning ? { warning } : {}) }
    return { present: false, source: 'none', ...(warning ? { warning } : {}) }
  }

  async set(key: string): Promise<void> {
    if (!(await this.safeStorage.isAsyncEncryptionAvailable())) {
      throw new AppError('UNAVAILABLE', `The OS keychain is not available, so the key cannot be stored safely. Set ${API_KEY_ENV} instead.`)
    }
    const cipher = await this.safeStorage.encryptStringAsync(key)
    await writeFileAtomic(this.file, cipher)
  }

  async get(): Promise<string | undefined> {
    return (await this.readStored()).key ?? (this.env[API_KEY_ENV] || undefined)
  }

  /** Removes the stored key (the environment variable, if any, applies again). */
  async clear(): Promise<void> {
    await rm(this.file, { force: true })
  }

  private backendWarning(): string | undefined {
    if (this.platform !== 'linux') return undefined
    return this.safeStorage.getSelectedStorageBackend?.() === 'basic_text' ? BASIC_TEXT_WARNING : undefined
  }

  private async readStored(): Promise<{ key?: string; warning?: string }> {
    let cipher: Buffer
    try {
      cipher = await readFile(this.file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
      return { warning: `Cannot read the stored API key: ${(error as Error).message}` }
    }
    try {
      if (!(await this.safeStorage.isAsyncEncryptionAvailable())) {
        return { warning: 'The OS keychain is not available, so the stored API key cannot be read.' }
      }
      const { result, shouldReEncrypt } = await this.safeStorage.decryptStringAsync(cipher)
      // The keychain rotated its key: store the ciphertext under the new one.
      if (shouldReEncrypt) await writeFileAtomic(this.file, await this.safeStorage.encryptStringAsync(result))
      return result ? { key: result } : {}
    } catch {
      return { warning: 'The stored API key can no longer be decrypted (was the keychain reset?). Enter it again.' }
    }
  }
}
