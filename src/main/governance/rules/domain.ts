import { escapeRegExp } from './parse'

/**
 * `WebFetch(domain:...)` matching: case-insensitive, trailing dot stripped; `*.example.com` matches
 * subdomains at any depth (not the apex); a non-leading `*` does not cross dots.
 */
export function domainMatches(pattern: string, host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '')
  const p = pattern.toLowerCase().replace(/\.$/, '')
  if (p.startsWith('*.')) {
    const apex = p.slice(2)
    return h.endsWith(`.${apex}`) && domainMatches(apex, h.slice(h.length - apex.length))
  }
  const re = new RegExp(`^${p.split('*').map(escapeRegExp).join('[^.]*')}$`)
  return re.test(h)
}

/** Host of a URL, or undefined when the URL cannot be parsed. */
export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, '')
  } catch {
    return undefined
  }
}
