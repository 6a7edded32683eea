import { describe, expect, it } from 'vitest'
import { DEFAULT_BASE_URL, DEFAULT_MODEL, endpointInUse } from './config'

describe('endpointInUse', () => {
  it('takes the preferences first, then the environment, then the defaults, and says which', () => {
    expect(endpointInUse({}, {})).toEqual({ model: DEFAULT_MODEL, modelFrom: 'default', baseUrl: DEFAULT_BASE_URL, baseUrlFrom: 'default' })
    const env = { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999/', ANTHROPIC_MODEL: 'claude-haiku-4-5' }
    expect(endpointInUse({}, env)).toEqual({ model: 'claude-haiku-4-5', modelFrom: 'environment', baseUrl: 'http://127.0.0.1:9999', baseUrlFrom: 'environment' })
    expect(endpointInUse({ baseUrl: 'https://proxy.example', model: ' ' }, env)).toMatchObject({ baseUrl: 'https://proxy.example', baseUrlFrom: 'settings', modelFrom: 'environment' })
  })
})
