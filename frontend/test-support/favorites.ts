/** A favorite as the server sends it (contract/favorites.ts), of pin `pinId`, with its likes. */
export const favoriteOf = (id: number, pinId: number, likes = 1, version = likes) => ({
  id,
  pin_id: pinId,
  title: `Pin ${pinId}`,
  image_url: `/seed-images/${pinId}.svg`,
  image: null,
  likes_count: likes,
  likes_version: version,
});
