// New Pin's "From a website" (docs/page-images.md): a page's address, "Find pictures", the page's
// pictures to pick from (the pin builder's choice, components/PagePicturePicker.tsx). The picked
// picture becomes the pin's image, and the page its source.
import { type KeyboardEvent, useId, useState } from 'react';
import type { PageImages } from '../../../contract/pages.ts';
import { picturesToOffer, PagePictureChoices, useBrokenPictures } from '../../components/PagePicturePicker.tsx';
import { FormField } from '../../components/FormField.tsx';
import { useWebsitePictures } from './useWebsitePictures.ts';
import './from-website.css';

/** What a picked picture brings: the page's address (the pin's source) and title. */
export type PickedPage = Pick<PageImages, 'url' | 'title'>;

export const NO_PICTURES = 'No pictures found on that page.';

interface Props {
  id: string;
  /** The pin's image URL as the form holds it now (the picture shown as chosen). */
  selected: string;
  onPick: (pictureUrl: string, page: PickedPage) => void;
}

export function FromWebsite({ id, selected, onPick }: Props) {
  const [address, setAddress] = useState('');
  const search = useWebsitePictures();
  const [broken, onBroken] = useBrokenPictures();
  const errorId = useId();
  const loading = search.state.phase === 'loading';

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    // Enter here finds pictures; it must not save the pin (the field sits in the pin's form).
    if (event.key !== 'Enter') return;
    event.preventDefault();
    search.find(address);
  }

  const found = search.state.phase === 'found' ? search.state : null;
  const pictures = found ? picturesToOffer('', found.page.images).filter((picture) => !broken.has(picture.url) || picture.url === selected) : [];
  return (
    <div id={id} className="from-website" role="group" aria-label="From a website">
      <div className="from-website__row">
        <FormField
          label="Website address"
          type="url"
          inputMode="url"
          autoComplete="url"
          placeholder="https://…"
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          onKeyDown={onKeyDown}
          invalidBy={search.state.phase === 'failed' ? errorId : undefined}
        />
        <button type="button" className="button from-website__find" onClick={() => search.find(address)} disabled={loading} aria-describedby={loading ? `${id}-status` : undefined}>
          Find pictures
        </button>
      </div>
      <p id={`${id}-status`} className="field__hint" role="status">
        {loading ? 'Looking for pictures on the page…' : found && pictures.length === 0 ? NO_PICTURES : ''}
      </p>
      {search.state.phase === 'failed' ? (
        <p id={errorId} className="field__error" role="alert">
          {search.state.message}
        </p>
      ) : null}
      {loading ? <PagePictureChoices pictures={[]} loading selected={selected} onChoose={() => undefined} onBroken={onBroken} /> : null}
      {found && pictures.length > 0 ? <PagePictureChoices pictures={pictures} loading={false} selected={selected} onChoose={(url) => onPick(url, found.page)} onBroken={onBroken} /> : null}
    </div>
  );
}
