import { describe, expect, it } from 'vitest'
import { contextWindowOf } from '../../../shared/context-window'
import { resolveModelName } from './aliases'
import { CONTEXT_1M_BETA, DEFAULT_MODEL, DEFAULT_RETRY_POLICY, resolveModelAlias, resolveModelConfig, wireModel } from './config'

describe('resolveModelConfig', () => {
  it('reads ANTHROPIC_* variables, with overrides on top', () => {
    const env = {
      ANTHROPIC_API_KEY: 'sk-env',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999/',
      ANTHROPIC_MODEL: 'claude-opus-4-6',
      ANTHROPIC_FALLBACK_MODEL: 'claude-haiku-4-5',
    }
    const result = resolveModelConfig(env, { model: 'claude-sonnet-4-6', retry: { maxAttempts: 3 } })
    expect(result).toEqual({
      ok: true,
      value: {
        apiKey: 'sk-env',
        baseURL: 'http://127.0.0.1:9999',
        model: 'claude-sonnet-4-6',
        fallbackModel: 'claude-haiku-4-5',
        retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: 3 },
      },
    })
  })

  it('defaults the model and leaves credentials absent when unset or blank', () => {
    const result = resolveModelConfig({ ANTHROPIC_API_KEY: '  ', ANTHROPIC_MODEL: '' })
    expect(result.ok && result.value).toEqual({ model: DEFAULT_MODEL, retry: DEFAULT_RETRY_POLICY })
  })

  it('fails closed on a bad base URL or retry policy', () => {
    expect(resolveModelConfig({ ANTHROPIC_BASE_URL: 'not a url' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    expect(resolveModelConfig({ ANTHROPIC_BASE_URL: 'file:///etc' })).toMatchObject({ ok: false })
    expect(resolveModelConfig({}, { retry: { maxAttempts: 0 } })).toMatchObject({ ok: false, error: { message: expect.stringContaining('maxAttempts') } })
    expect(resolveModelConfig({}, { retry: { jitter: 2 } })).toMatchObject({ ok: false })
    expect(resolveModelConfig({}, { retry: { baseDelayMs: 10, maxDelayMs: 5 } })).toMatchObject({ ok: false })
  })
})

describe('[1m] model names', () => {
  it('resolves the alias and keeps the suffix, which only the wire drops', () => {
    expect(resolveModelAlias(' Opus[1M] ')).toBe('claude-opus-4-6[1M]')
    expect(resolveModelAlias('claude-sonnet-4-5[1m]')).toBe('claude-sonnet-4-5[1m]')
    expect(resolveModelAlias('haiku')).toBe('claude-haiku-4-5')
    expect(wireModel('claude-opus-4-6[1M]')).toEqual({ id: 'claude-opus-4-6', betas: [CONTEXT_1M_BETA] })
    expect(wireModel('claude-opus-4-6')).toEqual({ id: 'claude-opus-4-6', betas: [] })
    // Only a trailing suffix counts.
    expect(wireModel('odd[1m]-name')).toEqual({ id: 'odd[1m]-name', betas: [] })
  })

  it('keeps the suffix for agent files and the Agent tool too, pinned aliases included', () => {
    // A subagent asked for `sonnet[1m]` must reach the API as the sonnet id plus the beta, not as `sonnet`.
    expect(wireModel(resolveModelName('sonnet[1m]'))).toEqual({ id: 'claude-sonnet-4-6', betas: [CONTEXT_1M_BETA] })
    expect(resolveModelName('opus[1m]', { ANTHROPIC_DEFAULT_OPUS_MODEL: 'gateway-opus' })).toBe('gateway-opus[1m]')
    expect(resolveModelName(' claude-opus-4-1 ')).toBe('claude-opus-4-1')
  })

  it('gives the 1M window to exactly the names the wire sends the 1M beta for', () => {
    for (const name of ['claude-sonnet-4-6[1m]', 'claude-opus-4-6[1M]', 'claude-sonnet-4-6', 'my-model-1m', 'odd[1m]-name']) {
      expect(contextWindowOf(name) === 1_000_000).toBe(wireModel(name).betas.length > 0)
    }
  })
})
