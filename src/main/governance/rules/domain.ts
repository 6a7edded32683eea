import { escapeRegExp } from './parse'

/**
 * `WebFetch(domain:...)` matching: case-insensitive, trailing dot stripped; `*.example.com` matches
 * subdomains at any depth (not the apex); a non-leading `*` does not cross dots.
 */
export function domainMatches(pattern: string, host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '')
  const wanted = pattern.toLowerCase().replace(/\.$/, '')
  if (wanted.startsWith('*.')) {
    const apex = wanted.slice(2)
    return name.endsWith(`.${apex}`) && domainMatches(apex, name.slice(name.length - apex.length))
  }
  const regex = new RegExp(`^${wanted.split('*').map(escapeRegExp).join('[^.]*')}$`)
  return regex.test(name)
}

/** Host of a URL, or undefined when the URL cannot be parsed. */
export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, '')
  } catch {
    return undefined
  }
}
