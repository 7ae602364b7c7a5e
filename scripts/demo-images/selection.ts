// The hand-picked demo set that scripts/demo-images.ts builds: which files of which Debian package,
// with their titles and, for photos and wallpapers, a one-line description. Picked by looking at
// every candidate (clip art at least 400 px, no look-alikes, nothing unsuitable for a shared
// demo), so the set does not change when a package adds files. Authors and licences are not typed
// here: the build reads them from each package's own metadata. The clip art is in clipart.ts.

/** Debian packages the set comes from, pinned so a rebuild gives the same files. */
export const PACKAGES = {
  'openclipart-png': '1:0.18+dfsg-19',
  'plasma-workspace-wallpapers': '4:5.27.5-2',
  'mate-backgrounds': '1.26.0-1',
  'gnome-backgrounds': '43.1-1',
  'python3-skimage': '0.19.3-8',
} as const;
export type PackageName = keyof typeof PACKAGES;

/** Photos and wallpapers: one entry per picture, described by hand. */
export interface Picture {
  /** plasma: the wallpaper's folder; mate: path under usr/share/backgrounds/mate; gnome: file name; skimage: file name. */
  source: string;
  title: string;
  /** One sentence, without tags (the build appends them). */
  text: string;
  kind: 'photo' | 'drawing';
  tags: string[];
  /** Crop to this aspect (width / height) around the most interesting part, for shape variety. */
  crop?: number;
}

export const PLASMA: Picture[] = [
  { source: 'Altai', title: 'Altai', text: 'Low-poly mountains mirrored in a still blue lake.', kind: 'drawing', tags: ['art', 'mountains'] },
  { source: 'Autumn', title: 'Autumn', text: 'A painterly autumn tree shedding its leaves over a small figure in a meadow.', kind: 'drawing', tags: ['art', 'autumn'] },
  { source: 'BytheWater', title: 'By the water', text: 'Sunlit planks of a jetty stretching out over calm water.', kind: 'photo', tags: ['photography', 'lakes'] },
  { source: 'Canopee', title: 'Canopée', text: 'Layers of green, blue and gold, like a forest canopy seen from above.', kind: 'drawing', tags: ['art', 'abstract'] },
  { source: 'ColdRipple', title: 'Cold ripple', text: 'A lone jetty fading into grey mist on a still lake.', kind: 'photo', tags: ['photography', 'lakes', 'mist'] },
  { source: 'ColorfulCups', title: 'Colourful cups', text: 'Rows of party cups seen from above, blue inside and pink.', kind: 'photo', tags: ['photography', 'colour'], crop: 1 },
  { source: 'DarkestHour', title: 'Darkest hour', text: 'Blue hour over a misty lake, the far shore only a shadow.', kind: 'photo', tags: ['photography', 'lakes', 'night'] },
  { source: 'EveningGlow', title: 'Evening glow', text: 'Wooden rowing boats pulled up on the shore as the sun goes down.', kind: 'photo', tags: ['photography', 'sunset', 'boats'] },
  { source: 'FallenLeaf', title: 'Fallen leaf', text: 'A fallen maple leaf glowing in the low autumn sun.', kind: 'photo', tags: ['photography', 'autumn', 'leaves'] },
  { source: 'Flow', title: 'Flow', text: 'Hexagon tiles with a stream of green light running through them.', kind: 'drawing', tags: ['art', 'abstract'] },
  { source: 'FlyingKonqui', title: 'Flying Konqi', text: 'Konqi, the KDE dragon, flying over a sea of blue bubbles.', kind: 'drawing', tags: ['art', 'illustration'] },
  { source: 'Grey', title: 'Grey', text: 'Curving bands of a modern façade in black and white.', kind: 'photo', tags: ['photography', 'architecture'] },
  { source: 'Honeywave', title: 'Honeywave', text: 'Orange honeycomb shapes drifting over a deep blue ground.', kind: 'drawing', tags: ['art', 'abstract'] },
  { source: 'IceCold', title: 'Ice cold', text: 'Icy blue shapes like floes on a glassy sea.', kind: 'drawing', tags: ['art', 'abstract'] },
  { source: 'Kay', title: 'Kay', text: 'Bold diagonal bands of yellow, white and turquoise.', kind: 'drawing', tags: ['art', 'abstract'] },
  { source: 'Kite', title: 'Kite', text: 'A rainbow kite high up in a deep blue sky.', kind: 'photo', tags: ['photography', 'sky'], crop: 0.8 },
  { source: 'MilkyWay', title: 'Milky Way', text: 'A band of glowing shapes across a purple night.', kind: 'drawing', tags: ['art', 'abstract'] },
  { source: 'OneStandsOut', title: 'One stands out', text: 'One rust-coloured plant in a crowd of green ones.', kind: 'photo', tags: ['photography', 'nature'] },
  { source: 'Opal', title: 'Opal', text: 'Smooth waves of plum, blue and rose.', kind: 'drawing', tags: ['art', 'abstract'] },
  { source: 'PastelHills', title: 'Pastel hills', text: 'Soft pastel polygons rolling away like hills.', kind: 'drawing', tags: ['art', 'abstract'] },
  { source: 'Patak', title: 'Patak', text: 'A low-poly stream cutting through a blue and coral landscape.', kind: 'drawing', tags: ['art', 'abstract'] },
  { source: 'Path', title: 'Path', text: 'A narrow path through a dark spruce forest.', kind: 'photo', tags: ['photography', 'forest'], crop: 0.8 },
  { source: 'SafeLanding', title: 'Safe landing', text: 'A red rocket at rest in a sunny valley while its crew strolls in the grass.', kind: 'drawing', tags: ['art', 'illustration', 'space'] },
  { source: 'Shell', title: 'Shell', text: 'Faceted purple and blue ridges, like the inside of a shell.', kind: 'drawing', tags: ['art', 'abstract'] },
  { source: 'Volna', title: 'Volna', text: 'A turquoise wave breaking on a sandy beach, drawn in facets.', kind: 'drawing', tags: ['art', 'sea'] },
  { source: 'summer_1am', title: 'Summer, 1 a.m.', text: 'One in the morning in a Nordic summer: a pink sky over a quiet lake.', kind: 'photo', tags: ['photography', 'lakes', 'summer'] },
];

export const MATE: Picture[] = [
  { source: 'nature/Aqua.jpg', title: 'Drop', text: 'A water drop bouncing off a blue pool, caught mid-splash.', kind: 'photo', tags: ['photography', 'water', 'macro'] },
  { source: 'nature/Blinds.jpg', title: 'Green blinds', text: 'A bright green leaf up close, its ribs like window blinds.', kind: 'photo', tags: ['photography', 'leaves', 'macro'] },
  { source: 'nature/Dune.jpg', title: 'Dune grass', text: 'Golden grass bending in the wind on a dune by the sea.', kind: 'photo', tags: ['photography', 'beach'] },
  {
    source: 'nature/FreshFlower.jpg',
    title: 'Fresh flower',
    text: 'An orange flower in full bloom, its petals filling the frame.',
    kind: 'photo',
    tags: ['photography', 'flowers', 'macro'],
    crop: 0.8,
  },
  { source: 'nature/Garden.jpg', title: 'Marigold', text: 'A marigold glowing in a summer garden.', kind: 'photo', tags: ['photography', 'flowers'] },
  { source: 'nature/GreenMeadow.jpg', title: 'Green meadow', text: 'Fresh spring grass, as close as it gets.', kind: 'photo', tags: ['photography', 'grass'], crop: 1 },
  { source: 'nature/LadyBird.jpg', title: 'Ladybird', text: 'A ladybird on a blade of grass among forget-me-nots.', kind: 'photo', tags: ['photography', 'insects', 'macro'] },
  { source: 'nature/RainDrops.jpg', title: 'Rain drops', text: 'Rain beading on a broad green leaf.', kind: 'photo', tags: ['photography', 'rain', 'leaves'] },
  { source: 'nature/Storm.jpg', title: 'Storm', text: 'Storm clouds rolling in over a wide, flat land.', kind: 'photo', tags: ['photography', 'sky', 'weather'] },
  { source: 'nature/TwoWings.jpg', title: 'Two wings', text: 'Two dandelion seeds about to lift off against an orange blur.', kind: 'photo', tags: ['photography', 'macro'] },
  { source: 'nature/Wood.jpg', title: 'Wood', text: 'Pale wooden boards, grain and all.', kind: 'photo', tags: ['photography', 'texture'] },
  { source: 'nature/YellowFlower.jpg', title: 'Yellow flower', text: 'A yellow flower head shining against a dark background.', kind: 'photo', tags: ['photography', 'flowers'], crop: 0.8 },
  { source: 'abstract/Elephants.jpg', title: 'Elephants', text: 'A dreamlike painting of blue elephants, mirrored as in water.', kind: 'drawing', tags: ['art', 'elephants'] },
];

export const GNOME: Picture[] = [
  { source: 'adwaita-l.webp', title: 'Adwaita', text: 'Translucent blue blocks in the GNOME desktop’s signature style.', kind: 'drawing', tags: ['art', 'abstract'] },
  { source: 'grid-d.webp', title: 'Grid', text: 'A glittering grid of blue dots on navy.', kind: 'drawing', tags: ['art', 'pattern'] },
  { source: 'pixels-l.webp', title: 'Pixels', text: 'Tiny pixel-art icons scattered like confetti on a sand-coloured ground.', kind: 'drawing', tags: ['art', 'pixelart'] },
];

/** scikit-image's sample photos; `licence` is the phrase the build expects in the image's docstring. */
export const SKIMAGE: Array<Picture & { fetcher: string; licence: string; license: string; author: string | null }> = [
  {
    source: 'astronaut.png',
    fetcher: 'astronaut',
    title: 'Astronaut Eileen Collins',
    text: 'NASA portrait of Eileen Collins, the first woman to pilot a space shuttle.',
    kind: 'photo',
    tags: ['photography', 'space', 'portrait'],
    licence: 'released into the public domain',
    license: 'public-domain',
    author: 'NASA',
  },
  {
    source: 'chelsea.png',
    fetcher: 'chelsea',
    title: 'Chelsea the cat',
    text: 'Chelsea, a tabby, looking straight into the lens.',
    kind: 'photo',
    tags: ['photography', 'cats'],
    licence: 'CC0 by the photographer (Stefan van der Walt)',
    license: 'CC0-1.0',
    author: 'Stefan van der Walt',
  },
  {
    source: 'coffee.png',
    fetcher: 'coffee',
    title: 'Espresso',
    text: 'An espresso on its saucer at Pikolo Espresso Bar.',
    kind: 'photo',
    tags: ['photography', 'coffee'],
    licence: 'CC0 by the photographer (Rachel Michetti)',
    license: 'CC0-1.0',
    author: 'Rachel Michetti',
  },
  {
    source: 'rocket.jpg',
    fetcher: 'rocket',
    title: 'Falcon 9 launch',
    text: 'A Falcon 9 carrying DSCOVR on the pad at Cape Canaveral before lift-off.',
    kind: 'photo',
    tags: ['photography', 'space', 'rockets'],
    licence: 'released in the public domain',
    license: 'public-domain',
    author: 'SpaceX',
  },
  {
    source: 'hubble_deep_field.jpg',
    fetcher: 'hubble_deep_field',
    title: 'Hubble eXtreme Deep Field',
    text: 'Thousands of galaxies in one tiny patch of sky: the Hubble telescope’s farthest view.',
    kind: 'photo',
    tags: ['photography', 'space', 'astronomy'],
    licence: 'may be freely used in the public domain',
    license: 'public-domain',
    author: 'NASA',
  },
  {
    source: 'camera.png',
    fetcher: 'camera',
    title: 'The cameraman',
    text: 'A photographer at work with a camera on a tripod, in black and white.',
    kind: 'photo',
    tags: ['photography', 'blackandwhite'],
    licence: 'CC0 by the photographer (Lav Varshney)',
    license: 'CC0-1.0',
    author: 'Lav Varshney',
  },
  {
    source: 'coins.png',
    fetcher: 'coins',
    title: 'Greek coins from Pompeii',
    text: 'Two dozen ancient coins laid out in rows, from the Brooklyn Museum’s collection.',
    kind: 'photo',
    tags: ['photography', 'history'],
    licence: 'No known copyright restrictions',
    license: 'no-known-copyright',
    author: 'Brooklyn Museum',
  },
];

/** Default tags of an Openclipart folder (the longest matching folder wins). */
export const FOLDER_TAGS: Record<string, string[]> = {
  animals: ['animals', 'wildlife'],
  'animals/birds': ['animals', 'birds'],
  'animals/bugs': ['animals', 'insects'],
  'animals/fish': ['animals', 'sealife'],
  'animals/mammals': ['animals', 'wildlife'],
  'animals/mammals/bears': ['animals', 'bears'],
  'animals/mammals/big_cats': ['animals', 'bigcats'],
  'animals/mammals/dogs': ['animals', 'dogs'],
  'animals/mammals/horses': ['animals', 'horses'],
  'animals/mammals/housecats': ['animals', 'cats'],
  buildings: ['architecture', 'buildings'],
  'buildings/furniture': ['home', 'furniture'],
  'buildings/homes': ['architecture', 'homes'],
  decorations: ['decor', 'ornaments'],
  education: ['school', 'education'],
  'education/books': ['books', 'reading'],
  electronics: ['electronics', 'gadgets'],
  food: ['food', 'cooking'],
  'food/beverages': ['food', 'drinks'],
  'food/beverages/alcohol': ['drinks', 'cocktails'],
  'food/breads_and_carbs': ['food', 'breakfast'],
  'food/desserts': ['food', 'desserts'],
  'food/fruit': ['food', 'fruit'],
  'food/meats_and_eggs': ['food', 'fastfood'],
  'food/vegetables': ['food', 'vegetables'],
  geography: ['geography', 'maps'],
  'geography/astronomy': ['space', 'astronomy'],
  office: ['office', 'stationery'],
  'office/telephone': ['office', 'phones'],
  people: ['people', 'portraits'],
  'people/clothing/hats': ['fashion', 'hats'],
  plants: ['plants', 'nature'],
  'plants/flowers': ['plants', 'flowers'],
  'plants/trees': ['plants', 'trees'],
  recreation: ['leisure', 'games'],
  'recreation/games/chess': ['games', 'chess'],
  'recreation/holiday': ['holidays', 'seasons'],
  'recreation/holiday/christmas': ['holidays', 'christmas'],
  'recreation/holiday/valentines': ['holidays', 'love'],
  'recreation/music': ['music', 'instruments'],
  'recreation/party': ['party', 'celebrations'],
  'recreation/sports': ['sports', 'fitness'],
  'recreation/toys': ['toys', 'kids'],
  science: ['science', 'lab'],
  'science/astronomy': ['space', 'astronomy'],
  tools: ['tools', 'diy'],
  transportation: ['transport', 'travel'],
  'transportation/boating': ['boats', 'sailing'],
  'transportation/vehicles': ['transport', 'vehicles'],
};

/**
 * The first pins of the demo, by title: what a fresh home page and a test seeding a dozen pins
 * show, so photos and drawings, landscape, portrait and square, come first. The rest follow
 * interleaved (one from each group in turn).
 */
export const FEATURED = [
  'Evening glow',
  'Emperor penguin',
  'Chelsea the cat',
  'Sunflower',
  'Path',
  'Safe landing',
  'Espresso',
  'Fifties jukebox',
  'Astronaut Eileen Collins',
  'Dolphin',
  'Fallen leaf',
  'Party balloons',
];
