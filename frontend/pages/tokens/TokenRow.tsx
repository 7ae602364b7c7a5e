import type { ApiToken } from '../../../contract/tokens.ts';
import { relativeTime } from '../../components/RelativeTime.tsx';

const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const day = (iso: string) => dateFormat.format(new Date(iso));

function expiry(token: ApiToken, now: number): string {
  if (!token.expiresAt) return 'Never expires';
  return Date.parse(token.expiresAt) <= now ? `Expired ${day(token.expiresAt)}` : `Expires ${day(token.expiresAt)}`;
}

function lastUse(token: ApiToken, now: number): string {
  if (!token.lastUsedAt) return 'Never used';
  return `Last used ${relativeTime(token.lastUsedAt, now) ?? day(token.lastUsedAt)}`;
}

/** One token of the list: what it is, when it lapses, when it was last used, and Revoke. */
export function TokenRow({ token, now, onRevoke }: { token: ApiToken; now: number; onRevoke: (token: ApiToken) => void }) {
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= now;
  return (
    <li className={`token-row${expired ? ' token-row--expired' : ''}`}>
      <div className="token-row__about">
        <p className="token-row__name">
          {token.name} <span className={`token-badge token-badge--${token.scope}`}>{token.scope === 'write' ? 'Write' : 'Read'}</span>
        </p>
        <p className="token-row__meta">
          Created {day(token.createdAt)} · {expiry(token, now)} · {lastUse(token, now)}
        </p>
      </div>
      <button type="button" className="button button--secondary button--small" onClick={() => onRevoke(token)} aria-label={`Revoke ${token.name}`}>
        Revoke
      </button>
    </li>
  );
}
