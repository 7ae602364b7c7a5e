import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { NewPinPage } from './NewPinPage.tsx';
import { builderPrefill } from './pin-builder/params.ts';

/**
 * /pin-builder?url=&media=&description= (the bookmarklet's and other sites' "Save" link): the New
 * Pin form filled in from the link. Signed-out visitors log in first and come back to the same link.
 */
export function PinBuilderPage() {
  const [search] = useSearchParams();
  const prefill = useMemo(() => builderPrefill(search, window.location.host), [search]);
  // A new link (another Save while this window is open) starts a new form.
  return <NewPinPage key={search.toString()} prefill={prefill} />;
}
