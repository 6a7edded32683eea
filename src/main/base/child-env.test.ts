import { describe, expect, it } from 'vitest'
import { childEnvironment, isHeldBack } from './child-env'

const env = {
  PATH: '/usr/bin',
  HOME: '/home/me',
  ANTHROPIC_API_KEY: 'sk-ant-secret',
  anthropic_auth_token: 'bearer-secret',
  ANTHROPIC_BASE_URL: 'https://gateway.example',
  GITHUB_TOKEN: 'ghp_x',
  AWS_SECRET: 'aws',
  NPM_TOKEN: 'npm',
  UNSET: undefined,
}

describe('childEnvironment', () => {
  it("always holds back Sous's own credentials, whatever their case, and nothing else by default", () => {
    expect(childEnvironment(env)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      ANTHROPIC_BASE_URL: 'https://gateway.example',
      GITHUB_TOKEN: 'ghp_x',
      AWS_SECRET: 'aws',
      NPM_TOKEN: 'npm',
    })
  })

  it('holds back what the user marks, by name or * pattern, and passes named variables through', () => {
    const out = childEnvironment(env, { secrets: ['*_TOKEN', 'aws_*'], passThrough: ['npm_token'] })
    expect(Object.keys(out).sort()).toEqual(['ANTHROPIC_BASE_URL', 'HOME', 'NPM_TOKEN', 'PATH'])
    expect(childEnvironment(env, { passThrough: ['ANTHROPIC_API_KEY'] }).ANTHROPIC_API_KEY).toBe('sk-ant-secret')
  })

  it('reads patterns literally apart from *', () => {
    expect(isHeldBack('A_B', { secrets: ['A.B'] })).toBe(false)
    expect(isHeldBack('A.B', { secrets: ['A.B'] })).toBe(true)
    expect(isHeldBack('MY_TOKEN_2', { secrets: ['*_TOKEN'] })).toBe(false)
    expect(isHeldBack('MY_TOKEN_2', { secrets: ['*_TOKEN*'] })).toBe(true)
  })
})
