import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppError } from '../../shared/ipc/result'
import { MemoryKeyStore, MEMORY_KEY_WARNING } from './memory-key-store'
import { BASIC_TEXT_WARNING, SafeStorageKeyStore, type SafeStorageLike } from './safe-storage-key-store'

/**
 * The Electron binary is absent here, so safeStorage is played by real AES-256-GCM under a
 * per-test key: a real cipher, so a wrong key or a tampered file really fails to decrypt.
 */
class AesStorage implements SafeStorageLike {
  available = true
  backend = 'gnome_libsecret'
  rotate = false
  constructor(private readonly secret = randomBytes(32)) {}
  async isAsyncEncryptionAvailable(): Promise<boolean> {
    return this.available
  }
  async encryptStringAsync(plain: string): Promise<Buffer> {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.secret, iv)
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return Buffer.concat([iv, cipher.getAuthTag(), body])
  }
  async decryptStringAsync(data: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }> {
    const decipher = createDecipheriv('aes-256-gcm', this.secret, data.subarray(0, 12))
    decipher.setAuthTag(data.subarray(12, 28))
    const result = Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8')
    return { shouldReEncrypt: this.rotate, result }
  }
  getSelectedStorageBackend(): string {
    return this.backend
  }
}

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-keys-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

describe('SafeStorageKeyStore', () => {
  it('stores only ciphertext, with owner-only permissions, and reads it back', async () => {
    const store = new SafeStorageKeyStore(home, new AesStorage(), {}, 'linux')
    expect(await store.status()).toEqual({ present: false, source: 'none' })
    await store.set('sk-ant-secret-123')
    const raw = await readFile(store.file)
    expect(raw.includes(Buffer.from('sk-ant-secret-123'))).toBe(false)
    expect((await stat(store.file)).mode & 0o777).toBe(0o600)
    expect(await store.get()).toBe('sk-ant-secret-123')
    expect(await store.status()).toEqual({ present: true, source: 'keychain' })
  })

  it('warns when the Linux backend is basic_text', async () => {
    const storage = new AesStorage()
    storage.backend = 'basic_text'
    const store = new SafeStorageKeyStore(home, storage, {}, 'linux')
    await store.set('k')
    expect((await store.status()).warning).toBe(BASIC_TEXT_WARNING)
    expect((await new SafeStorageKeyStore(home, storage, {}, 'darwin').status()).warning).toBeUndefined()
  })

  it('refuses to store when encryption is unavailable, and writes nothing', async () => {
    const storage = new AesStorage()
    storage.available = false
    const store = new SafeStorageKeyStore(home, storage, {}, 'linux')
    await expect(store.set('k')).rejects.toBeInstanceOf(AppError)
    await expect(stat(store.file)).rejects.toThrow()
  })

  it('falls back to the environment and reports a key that no longer decrypts', async () => {
    await new SafeStorageKeyStore(home, new AesStorage(), {}, 'linux').set('old')
    // A different keychain secret: the ciphertext is now unreadable.
    const store = new SafeStorageKeyStore(home, new AesStorage(), { ANTHROPIC_API_KEY: 'from-env' }, 'linux')
    const status = await store.status()
    expect(status.source).toBe('environment')
    expect(status.warning).toMatch(/can no longer be decrypted/)
    expect(await store.get()).toBe('from-env')
  })

  it('re-encrypts when the keychain asks for it', async () => {
    const storage = new AesStorage()
    const store = new SafeStorageKeyStore(home, storage, {}, 'linux')
    await store.set('k')
    const before = await readFile(store.file)
    storage.rotate = true
    expect(await store.get()).toBe('k')
    expect((await readFile(store.file)).equals(before)).toBe(false)
  })
})

describe('MemoryKeyStore', () => {
  it('reads the environment and keeps a set key in memory only, saying so', async () => {
    const store = new MemoryKeyStore({ ANTHROPIC_API_KEY: 'env-key' })
    expect(await store.status()).toEqual({ present: true, source: 'environment' })
    await store.set('typed-key')
    expect(await store.get()).toBe('typed-key')
    expect(await store.status()).toEqual({ present: true, source: 'memory', warning: MEMORY_KEY_WARNING })
    expect(await new MemoryKeyStore({}).status()).toEqual({ present: false, source: 'none' })
  })
})
