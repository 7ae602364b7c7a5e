import { Link } from 'react-router';
import { tagPieces } from '../../contract/tag-rules.ts';
import { tagPath } from './options.ts';
import './search.css';

/**
 * A description with its #tags as links to their pages (`/tags/:tag`). Only the pin's own tags
 * (`tags`, as the server stored them) become links: a 21st tag is text, as it is to search.
 */
export function TaggedText({ text, tags }: { text: string; tags: readonly string[] }) {
  const own = new Set(tags);
  return (
    <>
      {tagPieces(text).map((piece, index) =>
        piece.tag !== undefined && own.has(piece.tag) ? (
          <Link key={index} to={tagPath(piece.tag)} className="tag-link">
            {piece.text}
          </Link>
        ) : (
          piece.text
        ),
      )}
    </>
  );
}
