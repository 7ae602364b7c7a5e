import { sourceHost } from '../../../contract/source-url-rules.ts';

/** "Saving from {host}" on a form filled in from a pin builder link: where the pin will point. */
export function SourceLine({ sourceUrl }: { sourceUrl: string }) {
  return (
    <p className="source-line">
      Saving from{' '}
      <a href={sourceUrl} target="_blank" rel="nofollow noopener ugc" title={sourceUrl}>
        {sourceHost(sourceUrl)}
      </a>
    </p>
  );
}
