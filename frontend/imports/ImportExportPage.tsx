import { LoadFailed } from '../components/LoadFailed.tsx';
import { useState } from 'react';
import type { Import } from '../../contract/imports.ts';
import { EXPORT_URL, fetchImports } from '../api/imports.ts';
import { Loading } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useLoad } from '../hooks/useLoad.ts';
import { KIND_NAMES } from './file-preview.ts';
import { ImportPicker } from './ImportPicker.tsx';
import { ImportStatus, STATUS_TEXT } from './ImportStatus.tsx';
import './imports.css';

const dateOf = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Import / Export (docs/import-export.md), under the profile menu: bring pins in from a bookmark
 * file, a Pinboard export or a ZIP of images, follow the import live, retry or undo it; download
 * everything as a ZIP that another Pinboard imports back.
 */
export function ImportExportPage() {
  useDocumentTitle('Import / Export');
  const [imports, setImports] = useState<Import[]>([]);
  const [selected, setSelected] = useState<number | null>(null);
  const { status, failure, reload } = useLoad(async () => {
    const page = await fetchImports();
    setImports(page.imports);
    setSelected((current) => current ?? page.imports[0]?.id ?? null);
  }, 'imports');

  function started(created: Import) {
    setImports((current) => [created, ...current.filter((item) => item.id !== created.id)]);
    setSelected(created.id);
  }

  function changed(next: Import) {
    setImports((current) => current.map((item) => (item.id === next.id ? next : item)));
  }

  function gone(id: number) {
    setImports((current) => current.filter((item) => item.id !== id));
    setSelected(null);
  }

  return (
    <div className="imports-page">
      <header className="imports-page__header">
        <h1>Import / Export</h1>
        <p>Bring your pins with you, and take them anywhere: nothing you add here is locked in.</p>
      </header>
      <div className="imports-page__grid">
        <section className="imports-card" aria-labelledby="import-title">
          <h2 id="import-title">Import</h2>
          <ImportPicker onStarted={started} />
          {selected !== null ? <ImportStatus key={selected} id={selected} onGone={() => gone(selected)} onChanged={changed} /> : null}
        </section>
        <section className="imports-card" aria-labelledby="export-title">
          <h2 id="export-title">Export</h2>
          <p>
            A ZIP of everything yours: your pins with their original images, your boards in order, your favorites and comments (pinboard.json), a bookmark file other sites import, and a spreadsheet
            (pins.csv).
          </p>
          <a className="button" href={EXPORT_URL} download>
            Download my data
          </a>
        </section>
      </div>
      <section className="imports-card" aria-labelledby="history-title">
        <h2 id="history-title">Your imports</h2>
        {status === 'loading' && imports.length === 0 ? <Loading text="Loading imports..." /> : null}
        {status === 'error' ? <LoadFailed failure={failure} onRetry={reload} /> : null}
        {status !== 'loading' && imports.length === 0 ? <p className="status status--empty">No imports yet.</p> : null}
        <ul className="imports-history">
          {imports.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                className={`imports-history__item${item.id === selected ? ' imports-history__item--selected' : ''}`}
                aria-pressed={item.id === selected}
                onClick={() => setSelected(item.id)}
              >
                <span className="imports-history__kind">{KIND_NAMES[item.kind]}</span>
                <span>{dateOf(item.createdAt)}</span>
                <span className={`import-badge import-badge--${item.status}`}>{STATUS_TEXT[item.status]}</span>
                <span>
                  {item.done.toLocaleString('en-US')} of {item.total.toLocaleString('en-US')}
                  {item.failed ? `, ${item.failed.toLocaleString('en-US')} failed` : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
