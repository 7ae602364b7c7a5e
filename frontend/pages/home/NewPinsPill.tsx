/**
 * "N new pins": pins created while the reader browses are not slipped into the grid under them
 * (docs/paging.md); this pill says how many there are, and a click puts them first. It floats over the
 * page, so showing it moves nothing. The region is always there, so screen readers hear the count.
 */
export function NewPinsPill({ count, onShow }: { count: number; onShow: () => void }) {
  return (
    <div className="new-pins" aria-live="polite">
      {count > 0 ? (
        <button type="button" className="new-pins__button" onClick={onShow}>
          <span aria-hidden="true">↑ </span>
          {count === 1 ? '1 new pin' : `${count} new pins`}
        </button>
      ) : null}
    </div>
  );
}
