// The home page's HTML carries its visit's shuffle seed in <meta name="pinboard-home-seed">, with a
// preload of GET /api/pins/?order=shuffle&seed=S (backend/http/client-page.ts); the client's first
// home visit in that document adopts it (frontend/pages/home/visit.ts), so the preloaded answer is
// the one it asks for.
export const HOME_SEED_META = 'pinboard-home-seed';
