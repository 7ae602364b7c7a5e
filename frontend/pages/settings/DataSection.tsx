import { endpointUrl } from '../../api/endpoint.ts';

/** "Download my data": the export (docs/import-export.md), streamed by the server as one ZIP. */
export function DataSection() {
  return (
    <section className="settings-card" aria-labelledby="settings-data-title">
      <h2 id="settings-data-title">Your data</h2>
      <p className="settings-card__about">One ZIP file with your pins and their pictures, your boards, favorites and comments. It can be imported into Pinboard again.</p>
      <a className="button button--secondary settings-card__submit" href={endpointUrl('GET /api/export')} download>
        Download my data
      </a>
    </section>
  );
}
