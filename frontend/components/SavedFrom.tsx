import { normalizeSourceUrl, sourceHost } from '../../contract/source-url-rules.ts';

/**
 * "Saved from {host}" on a pin's page, linking the page its image was saved from
 * (docs/tokens-and-capture.md). The address is judged again before it becomes a link: only an
 * absolute http(s) URL is ever linked; rel marks it as user content the site does not vouch for.
 */
export function SavedFrom({ sourceUrl }: { sourceUrl: string | null | undefined }) {
  const href = sourceUrl ? normalizeSourceUrl(sourceUrl) : null;
  if (!href) return null;
  return (
    <p className="pin-detail__source">
      Saved from{' '}
      <a href={href} target="_blank" rel="nofollow noopener ugc">
        {sourceHost(href)}
      </a>
    </p>
  );
}
