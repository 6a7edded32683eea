import type { SearchCard } from './web-search-view'
import './web-search.css'

/**
 * A WebSearch call's hits as a list of links. Links open in a new window, which the main
 * process's window-open handler (app/harden.ts) hands to the system browser and never opens
 * in the app; a hit whose URL is not http(s) is shown as text.
 */
export function WebSearchCard({ card }: { card: SearchCard }) {
  if (card.links.length === 0) return <p className="tool-card__search-empty">No links found.</p>
  return (
    <ul className="tool-card__search" aria-label={`Search results for ${card.query}`}>
      {card.links.map((link, index) => (
        <li key={index}>
          {link.href ? (
            <a href={link.href} target="_blank" rel="noopener noreferrer" title={link.url}>
              {link.title}
            </a>
          ) : (
            <span title={link.url}>{link.title}</span>
          )}
          <span className="tool-card__search-url"> {link.url}</span>
        </li>
      ))}
    </ul>
  )
}
