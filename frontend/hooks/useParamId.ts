import { useParams } from 'react-router';

/** A positive whole-number route parameter, or null when the address holds anything else. */
export function useParamId(name: string): number | null {
  const raw = useParams()[name];
  if (!raw || !/^[1-9][0-9]{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= 2_147_483_647 ? id : null;
}
