// BUNDLE project templates (SPEC §7). FIX: every category named here exists in
// the synthetic catalog's taxonomy (bundle.test.ts checks it against
// CATEGORY_LIST); none is denied. Each entry says how the customer names the item.

export interface BundleTemplate {
  id: string;
  /** Completes "I'm …": "setting up a home office". */
  project: string;
  /** [leaf category path, what the customer calls one item of it] */
  items: ReadonlyArray<readonly [string, string]>;
}

export const BUNDLE_TEMPLATES: readonly BundleTemplate[] = [
  {
    id: 'home_office',
    project: 'setting up a home office',
    items: [
      ['furniture/desks', 'a desk'],
      ['office/desk_chairs', 'a desk chair'],
      ['electronics/monitors', 'a monitor'],
      ['electronics/keyboards', 'a keyboard'],
      ['office/desk_lamps', 'a desk lamp'],
      ['office/mousepads', 'a mousepad'],
      ['office/notebooks', 'a notebook'],
      ['office/pens', 'some pens'],
      ['electronics/headphones', 'a headset'],
      ['electronics/cables', 'a cable'],
    ],
  },
  {
    id: 'camping',
    project: 'going camping',
    items: [
      ['sports_outdoors/tents', 'a tent'],
      ['sports_outdoors/sleeping_bags', 'a sleeping bag'],
      ['sports_outdoors/camping_stoves', 'a camping stove'],
      ['sports_outdoors/headlamps', 'a headlamp'],
      ['sports_outdoors/backpacks', 'a backpack'],
      ['sports_outdoors/water_bottles', 'a water bottle'],
      ['electronics/power_banks', 'a power bank'],
      ['beauty/sunscreen', 'some sunscreen'],
      ['grocery/snacks', 'some snacks'],
    ],
  },
  {
    id: 'baking',
    project: 'getting into baking',
    items: [
      ['home_kitchen/bakeware', 'a baking pan'],
      ['home_kitchen/stand_mixers', 'a stand mixer'],
      ['home_kitchen/measuring_cups', 'a set of measuring cups'],
      ['home_kitchen/storage_containers', 'some storage containers'],
      ['home_kitchen/knives', 'a knife'],
      ['home_kitchen/blenders', 'a blender'],
    ],
  },
  {
    id: 'painting',
    project: 'repainting my apartment',
    items: [
      ['tools/paint_supplies', 'paint supplies'],
      ['tools/tape_measures', 'a tape measure'],
      ['tools/screwdrivers', 'a screwdriver'],
      ['tools/drills', 'a drill'],
      ['tools/tool_sets', 'a tool set'],
      ['home_kitchen/storage_containers', 'some storage containers'],
    ],
  },
  {
    id: 'fitness',
    project: 'starting a home workout routine',
    items: [
      ['sports_outdoors/yoga_mats', 'a yoga mat'],
      ['sports_outdoors/dumbbells', 'dumbbells'],
      ['sports_outdoors/resistance_bands', 'resistance bands'],
      ['sports_outdoors/water_bottles', 'a water bottle'],
      ['electronics/smartwatches', 'a fitness watch'],
      ['electronics/headphones', 'headphones'],
      ['clothing/sneakers', 'sneakers'],
      ['clothing/socks', 'socks'],
      ['clothing/t_shirts', 'a t-shirt'],
    ],
  },
  {
    id: 'coffee_corner',
    project: 'setting up a coffee corner',
    items: [
      ['home_kitchen/coffee_makers', 'a coffee maker'],
      ['grocery/coffee', 'some coffee'],
      ['grocery/tea', 'some tea'],
      ['home_kitchen/storage_containers', 'storage containers'],
      ['home_kitchen/measuring_cups', 'measuring cups'],
      ['grocery/snacks', 'some snacks'],
    ],
  },
  {
    id: 'new_puppy',
    project: 'getting a puppy',
    items: [
      ['pet_supplies/dog_food', 'dog food'],
      ['pet_supplies/pet_beds', 'a pet bed'],
      ['pet_supplies/leashes', 'a leash'],
      ['toys/plush', 'a plush toy'],
      ['home_kitchen/storage_containers', 'a food container'],
    ],
  },
  {
    id: 'kitchen_starter',
    project: 'moving into my first apartment with a kitchen',
    items: [
      ['home_kitchen/cookware', 'a pan'],
      ['home_kitchen/knives', 'a knife'],
      ['home_kitchen/blenders', 'a blender'],
      ['home_kitchen/measuring_cups', 'measuring cups'],
      ['home_kitchen/storage_containers', 'storage containers'],
      ['home_kitchen/coffee_makers', 'a coffee maker'],
      ['grocery/olive_oil', 'olive oil'],
      ['grocery/pasta', 'some pasta'],
    ],
  },
  {
    id: 'bedroom',
    project: 'redoing my bedroom',
    items: [
      ['furniture/bed_frames', 'a bed frame'],
      ['home_kitchen/bedding', 'bedding'],
      ['office/desk_lamps', 'a lamp'],
      ['furniture/bookshelves', 'a bookshelf'],
      ['electronics/speakers', 'a speaker'],
    ],
  },
  {
    id: 'travel_tech',
    project: 'packing tech for a long trip',
    items: [
      ['electronics/chargers', 'a charger'],
      ['electronics/cables', 'a charging cable'],
      ['electronics/power_banks', 'a power bank'],
      ['electronics/headphones', 'headphones'],
      ['sports_outdoors/backpacks', 'a backpack'],
      ['sports_outdoors/water_bottles', 'a water bottle'],
    ],
  },
  {
    id: 'game_night',
    project: 'hosting a family game night',
    items: [
      ['toys/board_games', 'a board game'],
      ['toys/puzzles', 'a puzzle'],
      ['toys/building_sets', 'a building set'],
      ['grocery/snacks', 'snacks'],
      ['grocery/tea', 'some tea'],
      ['electronics/speakers', 'a speaker'],
    ],
  },
  {
    id: 'workshop',
    project: 'setting up a garage workshop',
    items: [
      ['tools/drills', 'a drill'],
      ['tools/saws', 'a saw'],
      ['tools/screwdrivers', 'a screwdriver'],
      ['tools/tape_measures', 'a tape measure'],
      ['tools/tool_sets', 'a tool set'],
      ['sports_outdoors/headlamps', 'a headlamp'],
    ],
  },
  {
    id: 'skincare',
    project: 'building a skincare routine',
    items: [
      ['beauty/moisturizers', 'a moisturizer'],
      ['beauty/serums', 'a serum'],
      ['beauty/sunscreen', 'sunscreen'],
      ['beauty/shampoo', 'shampoo'],
      ['beauty/lipstick', 'a lipstick'],
    ],
  },
  {
    id: 'winter_wardrobe',
    project: 'refreshing my winter wardrobe',
    items: [
      ['clothing/jackets', 'a jacket'],
      ['clothing/hoodies', 'a hoodie'],
      ['clothing/jeans', 'a pair of jeans'],
      ['clothing/socks', 'socks'],
      ['clothing/sneakers', 'sneakers'],
      ['clothing/t_shirts', 'a t-shirt'],
    ],
  },
  {
    id: 'back_to_school',
    project: 'getting ready for school',
    items: [
      ['sports_outdoors/backpacks', 'a backpack'],
      ['office/notebooks', 'notebooks'],
      ['office/pens', 'pens'],
      ['electronics/headphones', 'headphones'],
      ['clothing/hoodies', 'a hoodie'],
      ['sports_outdoors/water_bottles', 'a water bottle'],
    ],
  },
];
