// The synthetic catalog's taxonomy as plain data: departments, leaf categories,
// brands, nouns, attributes and their value lists. Invariants (checked by
// taxonomy.test.ts): brand tokens are unique across the catalog and never a noun
// word; no noun's words are a subset of another noun's words, so a "brand + noun"
// query names one kind of product.

export interface AttrSpec {
  name: string;
  /** Overrides the default vocabulary (attributes.ts) for this category. */
  values?: readonly string[];
  /** Chance the product carries the attribute (default 1). */
  p?: number;
}

export interface CategoryDef {
  leaf: string;
  nouns: readonly string[];
  /** Median price in dollars (log-normal around it). */
  median: number;
  attrs: readonly AttrSpec[];
  /** Attributes named in the title's spec part, in order (when present). */
  title: readonly string[];
  /** Feature bullets to draw from. */
  features: readonly string[];
  /** Relative share of products (default 1). */
  weight?: number;
}

export interface DepartmentDef {
  name: string;
  label: string;
  brands: readonly string[];
  adjectives: readonly string[];
  categories: readonly CategoryDef[];
}

const c = (v: readonly string[]) => v;
const APPAREL = c(['XS', 'S', 'M', 'L', 'XL', 'XXL']);
const BASIC_COLORS = c(['Black', 'White', 'Gray', 'Navy', 'Blue', 'Red', 'Green', 'Beige']);
const DEVICE_COLORS = c(['Black', 'White', 'Silver', 'Gray', 'Blue']);

export const DEPARTMENTS: readonly DepartmentDef[] = [
  {
    name: 'electronics',
    label: 'Electronics',
    brands: [
      'Voltura',
      'Nexcell',
      'Ampora',
      'Sonique',
      'Pixelon',
      'Zentrix',
      'Corvane',
      'Lumatek',
      'Orbitron',
      'Kestrel Audio',
    ],
    adjectives: ['Compact', 'Portable', 'Fast', 'Sleek', 'Slim', 'Premium', 'Ultra', 'Smart', 'Travel', 'Durable'],
    categories: [
      {
        leaf: 'chargers',
        nouns: ['Wall Charger', 'Charging Block', 'Power Adapter'],
        median: 22,
        weight: 1.5,
        attrs: [
          { name: 'connector_type', values: ['USB-C', 'Lightning', 'Micro-USB', 'USB-A'] },
          { name: 'wattage', values: ['18', '20', '30', '45', '65', '100', '140'] },
          { name: 'color', values: DEVICE_COLORS },
        ],
        title: ['wattage', 'connector_type'],
        features: [
          'GaN technology keeps it cool',
          'Foldable plug for travel',
          'Charges a laptop and a phone at once',
          'Overheat and surge protection',
        ],
      },
      {
        leaf: 'cables',
        nouns: ['Charging Cable', 'Data Cord', 'Braided Lead'],
        median: 11,
        weight: 1.5,
        attrs: [
          { name: 'connector_type', values: ['USB-C', 'Lightning', 'Micro-USB', 'HDMI', 'DisplayPort'] },
          { name: 'color', values: DEVICE_COLORS },
          { name: 'material', values: ['Nylon', 'Plastic', 'Silicone'] },
          { name: 'pack_count', values: ['1', '2', '3'] },
        ],
        title: ['connector_type', 'pack_count'],
        features: [
          'Braided jacket survives 20,000 bends',
          'Supports fast charging',
          '6 ft length reaches the couch',
          'Aluminum connector housings',
        ],
      },
      {
        leaf: 'headphones',
        nouns: ['Headphones', 'Earbuds', 'Headset'],
        median: 45,
        weight: 1.2,
        attrs: [
          { name: 'connector_type', values: ['Bluetooth', 'USB-C', '3.5mm', 'Lightning'] },
          { name: 'color', values: DEVICE_COLORS },
          { name: 'noise_control' },
        ],
        title: ['noise_control', 'connector_type'],
        features: [
          '40-hour battery life',
          'Built-in microphone for calls',
          'Memory foam ear cushions',
          'Multipoint pairing',
        ],
      },
      {
        leaf: 'monitors',
        nouns: ['Monitor', 'Display'],
        median: 190,
        attrs: [
          { name: 'screen_size_in' },
          { name: 'resolution' },
          { name: 'connector_type', values: ['HDMI', 'DisplayPort', 'USB-C'] },
          { name: 'color', values: ['Black', 'White', 'Silver'] },
        ],
        title: ['screen_size_in', 'resolution'],
        features: [
          'IPS panel with wide viewing angles',
          'Height-adjustable stand',
          'Flicker-free backlight',
          '75 Hz refresh rate',
        ],
      },
      {
        leaf: 'power_banks',
        nouns: ['Power Bank', 'Battery Pack'],
        median: 30,
        attrs: [
          { name: 'connector_type', values: ['USB-C', 'Lightning', 'USB-A'] },
          { name: 'wattage', values: ['10', '18', '20', '30', '45', '65'] },
          { name: 'color', values: DEVICE_COLORS },
        ],
        title: ['wattage', 'connector_type'],
        features: [
          '10,000 mAh capacity',
          'LED charge indicator',
          'Airline carry-on safe',
          'Charges two devices at once',
        ],
      },
      {
        leaf: 'keyboards',
        nouns: ['Keyboard', 'Keypad'],
        median: 40,
        attrs: [
          { name: 'connector_type', values: ['Bluetooth', 'USB-C', 'USB-A'] },
          { name: 'color', values: DEVICE_COLORS },
        ],
        title: ['connector_type'],
        features: ['Quiet scissor-switch keys', 'Backlit keys', 'Multi-device switching', 'Spill-resistant design'],
      },
      {
        leaf: 'speakers',
        nouns: ['Speaker', 'Soundbar'],
        median: 50,
        attrs: [
          { name: 'connector_type', values: ['Bluetooth', '3.5mm', 'HDMI'] },
          { name: 'color', values: DEVICE_COLORS },
          { name: 'wattage', values: ['10', '20', '30', '45', '65', '100'] },
        ],
        title: ['wattage', 'connector_type'],
        features: ['Waterproof IPX7 rating', 'Deep bass radiator', '24-hour playtime', 'Pairs two speakers for stereo'],
      },
      {
        leaf: 'smartwatches',
        nouns: ['Smartwatch', 'Fitness Tracker'],
        median: 80,
        attrs: [
          { name: 'color', values: DEVICE_COLORS },
          { name: 'connector_type', values: ['Bluetooth'] },
          { name: 'screen_size_in', values: ['1.4', '1.6', '1.8', '1.9'] },
        ],
        title: ['screen_size_in', 'color'],
        features: ['Heart-rate and sleep tracking', 'Water resistant to 50 m', '7-day battery life', 'Built-in GPS'],
      },
    ],
  },
  {
    name: 'clothing',
    label: 'Clothing',
    brands: ['Northwell', 'Threadline', 'Urbanloom', 'Marlowe', 'Cobaltwear', 'Fenwick', 'Sierra Knit', 'Hollis'],
    adjectives: [
      'Classic',
      'Everyday',
      'Lightweight',
      'Soft',
      'Vintage',
      'Cozy',
      'Casual',
      'Essential',
      'Modern',
      'Premium',
    ],
    categories: [
      {
        leaf: 't_shirts',
        nouns: ['T-Shirt', 'Crew Tee', 'V-Neck'],
        median: 15,
        weight: 1.5,
        attrs: [
          { name: 'size', values: APPAREL },
          { name: 'color', values: BASIC_COLORS },
          { name: 'material', values: ['Cotton', 'Polyester', 'Linen'] },
          { name: 'fit' },
        ],
        title: ['material', 'color'],
        features: ['Pre-shrunk fabric', 'Tag-free collar', 'Machine washable', 'Reinforced shoulder seams'],
      },
      {
        leaf: 'jackets',
        nouns: ['Jacket', 'Windbreaker', 'Parka'],
        median: 60,
        attrs: [
          { name: 'size', values: APPAREL },
          { name: 'color', values: BASIC_COLORS },
          { name: 'material', values: ['Polyester', 'Nylon', 'Fleece', 'Wool', 'Leather'] },
        ],
        title: ['material', 'color'],
        features: ['Water-repellent shell', 'Zippered hand pockets', 'Packs into its own pocket', 'Adjustable hood'],
      },
      {
        leaf: 'hoodies',
        nouns: ['Hoodie', 'Sweatshirt'],
        median: 30,
        attrs: [
          { name: 'size', values: APPAREL },
          { name: 'color', values: BASIC_COLORS },
          { name: 'material', values: ['Cotton', 'Fleece', 'Polyester'] },
          { name: 'fit' },
        ],
        title: ['material', 'color'],
        features: ['Brushed fleece interior', 'Kangaroo pocket', 'Ribbed cuffs', 'Double-lined hood'],
      },
      {
        leaf: 'jeans',
        nouns: ['Jeans', 'Denim Pants'],
        median: 40,
        attrs: [
          { name: 'size', values: ['28', '30', '32', '34', '36', '38', '40'] },
          { name: 'color', values: ['Blue', 'Black', 'Gray', 'Navy'] },
          { name: 'material', values: ['Denim', 'Cotton'] },
          { name: 'fit' },
        ],
        title: ['fit', 'color'],
        features: ['Stretch denim for comfort', 'Five-pocket styling', 'Zip fly with button', 'Fade-resistant dye'],
      },
      {
        leaf: 'sneakers',
        nouns: ['Sneakers', 'Running Shoes', 'Trainers'],
        median: 55,
        attrs: [
          { name: 'size', values: ['6', '7', '8', '9', '10', '11', '12', '13'] },
          { name: 'color', values: BASIC_COLORS },
          { name: 'material', values: ['Mesh', 'Leather', 'Rubber'] },
        ],
        title: ['color'],
        features: ['Cushioned midsole', 'Breathable knit upper', 'Non-slip rubber outsole', 'Removable insole'],
      },
      {
        leaf: 'socks',
        nouns: ['Crew Socks', 'Ankle Socks'],
        median: 12,
        attrs: [
          { name: 'size', values: ['S', 'M', 'L'] },
          { name: 'color', values: BASIC_COLORS },
          { name: 'material', values: ['Cotton', 'Wool', 'Nylon'] },
          { name: 'pack_count', values: ['3', '6', '12'] },
        ],
        title: ['pack_count', 'material'],
        features: ['Cushioned sole', 'Arch support band', 'Moisture-wicking yarn', 'Seamless toe'],
      },
    ],
  },
  {
    name: 'home_kitchen',
    label: 'Home & Kitchen',
    brands: ['Hearthstone', 'Culinova', 'Brightnest', 'Kitchara', 'Oakhaven', 'Peppermill Co', 'Vesta'],
    adjectives: ['Classic', 'Professional', 'Compact', 'Modern', 'Heavy-Duty', 'Everyday', 'Deluxe', 'Essential'],
    categories: [
      {
        leaf: 'blenders',
        nouns: ['Blender', 'Smoothie Maker'],
        median: 60,
        attrs: [
          { name: 'wattage', values: ['300', '600', '900', '1200', '1500'] },
          { name: 'color', values: ['Black', 'White', 'Silver', 'Red'] },
          { name: 'material', values: ['Plastic', 'Glass', 'Stainless Steel'] },
          { name: 'size', values: ['24 oz', '48 oz', '64 oz'] },
        ],
        title: ['wattage', 'color'],
        features: ['Crushes ice in seconds', 'Dishwasher-safe jar', 'Pulse and three speeds', 'BPA-free container'],
      },
      {
        leaf: 'cookware',
        nouns: ['Frying Pan', 'Skillet', 'Saucepan', 'Dutch Oven'],
        median: 35,
        weight: 1.3,
        attrs: [
          { name: 'material', values: ['Stainless Steel', 'Cast Iron', 'Aluminum', 'Ceramic'] },
          { name: 'size', values: ['8 Inch', '10 Inch', '12 Inch'] },
          { name: 'color', values: ['Black', 'Silver', 'Red', 'Blue', 'Gray'] },
        ],
        title: ['material', 'size'],
        features: ['Oven safe to 500°F', 'Works on induction', 'Stay-cool handle', 'Even heat distribution'],
      },
      {
        leaf: 'coffee_makers',
        nouns: ['Coffee Maker', 'Espresso Machine', 'French Press'],
        median: 70,
        attrs: [
          { name: 'color', values: ['Black', 'White', 'Silver', 'Red'] },
          { name: 'material', values: ['Stainless Steel', 'Plastic', 'Glass'] },
          { name: 'capacity_oz', values: ['12', '20', '32', '40', '64'] },
        ],
        title: ['capacity_oz', 'color'],
        features: ['Programmable brew timer', 'Keep-warm plate', 'Reusable filter', 'Brew-strength control'],
      },
      {
        leaf: 'knives',
        nouns: ['Chef Knife', 'Knife Set', 'Paring Knife'],
        median: 40,
        attrs: [
          { name: 'material', values: ['Stainless Steel', 'Ceramic', 'Steel'] },
          { name: 'color', values: ['Black', 'Silver', 'Brown'] },
          { name: 'size', values: ['6 Inch', '8 Inch', '10 Inch'] },
        ],
        title: ['material', 'size'],
        features: ['Full-tang forged blade', 'Ergonomic handle', 'Holds its edge', 'Comes with a blade guard'],
      },
      {
        leaf: 'bakeware',
        nouns: ['Baking Sheet', 'Cake Pan', 'Muffin Tin'],
        median: 18,
        attrs: [
          { name: 'material', values: ['Aluminum', 'Silicone', 'Steel', 'Glass'] },
          { name: 'size', values: ['Small', 'Medium', 'Large'] },
          { name: 'color', values: ['Silver', 'Black', 'Red', 'Gray'] },
        ],
        title: ['material', 'size'],
        features: ['Nonstick coating', 'Warp-resistant rim', 'Dishwasher safe', 'Oven safe to 450°F'],
      },
      {
        leaf: 'stand_mixers',
        nouns: ['Stand Mixer', 'Hand Mixer'],
        median: 120,
        attrs: [
          { name: 'wattage', values: ['250', '300', '500', '800'] },
          { name: 'color', values: ['Red', 'White', 'Black', 'Silver', 'Teal'] },
          { name: 'material', values: ['Stainless Steel', 'Plastic'] },
        ],
        title: ['wattage', 'color'],
        features: ['Tilt-head design', 'Ten speeds', 'Includes dough hook and whisk', 'Splash guard'],
      },
      {
        leaf: 'measuring_cups',
        nouns: ['Measuring Cups', 'Measuring Spoons'],
        median: 12,
        attrs: [
          { name: 'material', values: ['Stainless Steel', 'Plastic', 'Silicone', 'Glass'] },
          { name: 'color', values: ['Silver', 'White', 'Red', 'Black'] },
          { name: 'size', values: ['4-Piece', '6-Piece', '8-Piece'] },
        ],
        title: ['material', 'size'],
        features: ['Engraved markings never fade', 'Nesting for storage', 'Metric and imperial', 'Dishwasher safe'],
      },
      {
        leaf: 'bedding',
        nouns: ['Sheet Set', 'Comforter', 'Duvet Cover'],
        median: 45,
        attrs: [
          { name: 'size', values: ['Twin', 'Full', 'Queen', 'King'] },
          { name: 'color', values: BASIC_COLORS },
          { name: 'material', values: ['Cotton', 'Linen', 'Polyester', 'Bamboo'] },
        ],
        title: ['material', 'size'],
        features: [
          'Deep pockets fit thick mattresses',
          'Breathable weave',
          'Wrinkle resistant',
          'Soft after every wash',
        ],
      },
      {
        leaf: 'storage_containers',
        nouns: ['Storage Container', 'Food Storage Set'],
        median: 20,
        attrs: [
          { name: 'material', values: ['Glass', 'Plastic', 'Bamboo'] },
          { name: 'size', values: ['Small', 'Medium', 'Large'] },
          { name: 'color', values: ['Clear', 'White', 'Gray', 'Blue'] },
          { name: 'pack_count', values: ['4', '6', '12', '24'] },
        ],
        title: ['material', 'pack_count'],
        features: ['Airtight snap lids', 'Microwave safe', 'Stackable design', 'Leak-proof seal'],
      },
    ],
  },
  {
    name: 'beauty',
    label: 'Beauty',
    brands: ['Lumiere Labs', 'Aveline', 'Dermaluxe', 'Petalia', 'Glowra', 'Seabright'],
    adjectives: ['Hydrating', 'Gentle', 'Daily', 'Nourishing', 'Lightweight', 'Radiant', 'Advanced', 'Soothing'],
    categories: [
      {
        leaf: 'moisturizers',
        nouns: ['Moisturizer', 'Face Cream', 'Body Lotion'],
        median: 18,
        weight: 1.3,
        attrs: [
          { name: 'item_form', values: ['Cream', 'Lotion', 'Gel', 'Balm'] },
          { name: 'skin_type' },
          { name: 'finish_type', values: ['Matte', 'Dewy', 'Natural'] },
          { name: 'scent' },
        ],
        title: ['skin_type'],
        features: ['Hyaluronic acid', 'Non-comedogenic', 'Fragrance options', 'Dermatologist tested'],
      },
      {
        leaf: 'shampoo',
        nouns: ['Shampoo', 'Conditioner'],
        median: 12,
        attrs: [
          { name: 'item_form', values: ['Liquid', 'Bar', 'Foam'] },
          { name: 'scent' },
          { name: 'capacity_oz', values: ['8', '12', '16', '32'] },
        ],
        title: ['scent', 'capacity_oz'],
        features: ['Sulfate free', 'Color safe', 'Adds volume', 'Vegan formula'],
      },
      {
        leaf: 'lipstick',
        nouns: ['Lipstick', 'Lip Gloss', 'Lip Balm'],
        median: 10,
        attrs: [
          { name: 'item_form', values: ['Stick', 'Liquid', 'Balm'] },
          { name: 'finish_type' },
          { name: 'color', values: ['Red', 'Pink', 'Purple', 'Brown', 'Beige', 'Orange'] },
        ],
        title: ['finish_type', 'color'],
        features: ['Long-wearing color', 'Shea butter', 'Transfer resistant', 'Cruelty free'],
      },
      {
        leaf: 'sunscreen',
        nouns: ['Sunscreen', 'Sun Block'],
        median: 14,
        attrs: [
          { name: 'item_form', values: ['Lotion', 'Spray', 'Stick', 'Gel'] },
          { name: 'skin_type' },
          { name: 'finish_type', values: ['Matte', 'Natural', 'Dewy'] },
        ],
        title: ['item_form', 'skin_type'],
        features: ['SPF 50 broad spectrum', 'Water resistant 80 minutes', 'Reef friendly', 'No white cast'],
      },
      {
        leaf: 'serums',
        nouns: ['Serum', 'Face Oil', 'Essence'],
        median: 22,
        attrs: [
          { name: 'item_form', values: ['Liquid', 'Gel', 'Oil', 'Cream'] },
          { name: 'skin_type' },
          { name: 'finish_type', values: ['Dewy', 'Natural', 'Matte'] },
        ],
        title: ['skin_type'],
        features: ['Vitamin C brightening', 'Niacinamide', 'Fast absorbing', 'Glass dropper bottle'],
      },
    ],
  },
  {
    name: 'sports_outdoors',
    label: 'Sports & Outdoors',
    brands: ['Trailhawk', 'Summitry', 'Ridgeback', 'Peakform', 'Wildpine', 'Ironstride', 'Bluefin'],
    adjectives: ['Lightweight', 'Rugged', 'Portable', 'All-Weather', 'Pro', 'Compact', 'Durable', 'Ultralight'],
    categories: [
      {
        leaf: 'tents',
        nouns: ['Tent', 'Shelter'],
        median: 90,
        attrs: [
          { name: 'capacity' },
          { name: 'color', values: ['Green', 'Orange', 'Blue', 'Gray', 'Yellow'] },
          { name: 'material', values: ['Nylon', 'Polyester'] },
          { name: 'weight_lb', values: ['2', '5', '10', '15', '20'] },
        ],
        title: ['capacity', 'color'],
        features: [
          'Sets up in five minutes',
          'Full rainfly',
          'Mesh windows for airflow',
          'Includes stakes and carry bag',
        ],
      },
      {
        leaf: 'sleeping_bags',
        nouns: ['Sleeping Bag', 'Camp Quilt'],
        median: 50,
        attrs: [
          { name: 'color', values: ['Green', 'Blue', 'Red', 'Gray', 'Orange'] },
          { name: 'material', values: ['Nylon', 'Polyester', 'Fleece'] },
          { name: 'size', values: ['Regular', 'Long', 'Kids'] },
        ],
        title: ['size', 'color'],
        features: ['Rated to 20°F', 'Compression sack included', 'Two-way zipper', 'Draft collar'],
      },
      {
        leaf: 'camping_stoves',
        nouns: ['Camping Stove', 'Backpacking Burner'],
        median: 40,
        attrs: [
          { name: 'material', values: ['Stainless Steel', 'Aluminum', 'Steel'] },
          { name: 'color', values: ['Silver', 'Black', 'Orange'] },
          { name: 'weight_lb', values: ['1', '2', '5', '10'] },
        ],
        title: ['material'],
        features: ['Piezo push-button ignition', 'Wind screen', 'Folds into its pot', 'Boils a liter in 3 minutes'],
      },
      {
        leaf: 'headlamps',
        nouns: ['Headlamp', 'Head Torch'],
        median: 18,
        attrs: [
          { name: 'color', values: ['Black', 'Red', 'Blue', 'Orange'] },
          { name: 'power_source', values: ['Battery', 'Cordless'] },
          { name: 'pack_count', values: ['1', '2'] },
        ],
        title: ['power_source', 'pack_count'],
        features: ['400 lumen beam', 'Red night mode', 'Rechargeable', 'Water resistant'],
      },
      {
        leaf: 'backpacks',
        nouns: ['Backpack', 'Daypack', 'Rucksack'],
        median: 45,
        attrs: [
          { name: 'color', values: BASIC_COLORS },
          { name: 'material', values: ['Nylon', 'Polyester', 'Canvas'] },
          { name: 'size', values: ['20L', '30L', '40L', '55L'] },
        ],
        title: ['size', 'color'],
        features: ['Padded laptop sleeve', 'Hydration compatible', 'Ventilated back panel', 'Rain cover included'],
      },
      {
        leaf: 'yoga_mats',
        nouns: ['Yoga Mat', 'Exercise Mat'],
        median: 25,
        attrs: [
          { name: 'color', values: ['Purple', 'Blue', 'Black', 'Pink', 'Green', 'Gray'] },
          { name: 'material', values: ['Foam', 'Rubber', 'Cork', 'TPE'] },
          { name: 'size', values: ['4mm', '6mm', '8mm'] },
        ],
        title: ['size', 'material'],
        features: ['Non-slip texture', 'Carrying strap', 'Alignment lines', 'Easy to clean'],
      },
      {
        leaf: 'dumbbells',
        nouns: ['Dumbbell', 'Kettlebell'],
        median: 35,
        attrs: [
          { name: 'weight_lb', values: ['5', '10', '15', '20', '25', '30', '40', '50'] },
          { name: 'material', values: ['Cast Iron', 'Rubber', 'Steel'] },
          { name: 'color', values: ['Black', 'Gray', 'Blue', 'Red'] },
        ],
        title: ['weight_lb', 'material'],
        features: ['Hex shape stops rolling', 'Knurled grip', 'Floor-friendly coating', 'Sold individually'],
      },
      {
        leaf: 'resistance_bands',
        nouns: ['Resistance Bands', 'Loop Bands'],
        median: 15,
        attrs: [
          { name: 'color', values: ['Red', 'Blue', 'Green', 'Black', 'Yellow'] },
          { name: 'material', values: ['Rubber', 'Fabric'] },
          { name: 'pack_count', values: ['1', '3', '5'] },
        ],
        title: ['pack_count', 'material'],
        features: ['Five resistance levels', 'Door anchor included', 'Latex free', 'Carry pouch'],
      },
      {
        leaf: 'water_bottles',
        nouns: ['Water Bottle', 'Tumbler'],
        median: 20,
        attrs: [
          { name: 'capacity_oz', values: ['16', '20', '24', '32', '40'] },
          { name: 'color', values: ['Black', 'White', 'Blue', 'Pink', 'Green', 'Teal'] },
          { name: 'material', values: ['Stainless Steel', 'Plastic', 'Glass'] },
        ],
        title: ['capacity_oz', 'material'],
        features: ['Keeps drinks cold 24 hours', 'Leak-proof lid', 'Fits cup holders', 'BPA free'],
      },
    ],
  },
  {
    name: 'grocery',
    label: 'Grocery',
    brands: ['Farrow Farms', 'Goldleaf', 'Mesa Verde', 'Harvestly', 'Brookside'],
    adjectives: ['Organic', 'Gourmet', 'Artisan', 'Family Size', 'Fresh', 'Premium', 'Fair Trade'],
    categories: [
      {
        leaf: 'coffee',
        nouns: ['Ground Coffee', 'Whole Bean Coffee', 'Coffee Pods'],
        median: 14,
        weight: 1.3,
        attrs: [
          { name: 'roast_level' },
          { name: 'flavor', values: ['Original', 'Vanilla', 'Caramel', 'Hazelnut', 'Chocolate'] },
          { name: 'weight_lb', values: ['1', '2', '5'] },
        ],
        title: ['roast_level', 'weight_lb'],
        features: [
          'Single origin beans',
          'Roasted in small batches',
          'Resealable bag',
          'Rainforest Alliance certified',
        ],
      },
      {
        leaf: 'tea',
        nouns: ['Green Tea', 'Black Tea', 'Herbal Tea'],
        median: 8,
        attrs: [
          { name: 'flavor', values: ['Original', 'Mint', 'Lemon', 'Berry', 'Vanilla'] },
          { name: 'pack_count', values: ['20', '40', '100'] },
        ],
        title: ['flavor', 'pack_count'],
        features: ['Individually wrapped bags', 'Caffeine free option', 'Whole leaf', 'Compostable sachets'],
      },
      {
        leaf: 'snacks',
        nouns: ['Potato Chips', 'Trail Mix', 'Granola Bars'],
        median: 6,
        attrs: [{ name: 'flavor' }, { name: 'pack_count', values: ['1', '6', '12', '24'] }],
        title: ['flavor', 'pack_count'],
        features: ['No artificial colors', 'Gluten free', 'Great for lunch boxes', 'Good source of fiber'],
      },
      {
        leaf: 'pasta',
        nouns: ['Spaghetti', 'Penne', 'Fusilli'],
        median: 4,
        attrs: [
          { name: 'weight_lb', values: ['1', '2', '5'] },
          { name: 'pack_count', values: ['1', '4', '8'] },
        ],
        title: ['weight_lb', 'pack_count'],
        features: ['Bronze-die cut', 'Durum wheat semolina', 'Cooks in 10 minutes', 'Made in Italy'],
      },
      {
        leaf: 'olive_oil',
        nouns: ['Olive Oil', 'Cooking Oil'],
        median: 13,
        attrs: [
          { name: 'capacity_oz', values: ['16', '24', '32', '64'] },
          { name: 'flavor', values: ['Original', 'Lemon', 'Spicy'] },
        ],
        title: ['capacity_oz'],
        features: ['Cold pressed', 'Harvest dated', 'Dark glass bottle', 'Single estate'],
      },
    ],
  },
  {
    name: 'toys',
    label: 'Toys & Games',
    brands: ['Brickbury', 'Playwise', 'Tinkertot', 'Funforge', 'Starcub'],
    adjectives: ['Creative', 'Educational', 'Colorful', 'Classic', 'Deluxe', 'Interactive', 'Mini'],
    categories: [
      {
        leaf: 'building_sets',
        nouns: ['Building Set', 'Brick Kit'],
        median: 30,
        attrs: [
          { name: 'piece_count', values: ['100', '250', '500', '750', '1000', '1500'] },
          { name: 'age_range' },
          { name: 'color', values: ['Multicolor', 'Blue', 'Red', 'Yellow'] },
        ],
        title: ['piece_count', 'age_range'],
        features: [
          'Compatible with major brands',
          'Step-by-step instructions',
          'Storage box included',
          'Builds three models',
        ],
      },
      {
        leaf: 'puzzles',
        nouns: ['Jigsaw Puzzle', 'Puzzle Box'],
        median: 15,
        attrs: [
          { name: 'piece_count', values: ['100', '300', '500', '1000', '2000'] },
          { name: 'age_range' },
          { name: 'size', values: ['Mini', 'Standard', 'Large'] },
        ],
        title: ['piece_count'],
        features: ['Precision-cut pieces', 'Poster included', 'Glare-free finish', 'Recycled board'],
      },
      {
        leaf: 'plush',
        nouns: ['Teddy Bear', 'Stuffed Animal', 'Plush Toy'],
        median: 16,
        attrs: [
          { name: 'color', values: ['Brown', 'White', 'Pink', 'Gray', 'Blue'] },
          { name: 'size', values: ['Small', 'Medium', 'Large'] },
          { name: 'age_range', values: ['3+ Years', '5+ Years'] },
        ],
        title: ['size', 'color'],
        features: ['Super soft fabric', 'Surface washable', 'Safety eyes', 'Hypoallergenic filling'],
      },
      {
        leaf: 'board_games',
        nouns: ['Board Game', 'Card Game'],
        median: 25,
        attrs: [
          { name: 'age_range' },
          { name: 'pack_count', values: ['1'], p: 0.3 },
          { name: 'color', values: ['Multicolor'], p: 0.5 },
        ],
        title: ['age_range'],
        features: ['2 to 6 players', '30 minute games', 'Easy to learn', 'Family game night favorite'],
      },
      {
        leaf: 'rc_cars',
        nouns: ['RC Car', 'Remote Control Truck'],
        median: 40,
        attrs: [
          { name: 'color', values: ['Red', 'Blue', 'Black', 'Green', 'Orange'] },
          { name: 'age_range', values: ['5+ Years', '8+ Years', '12+ Years'] },
          { name: 'power_source', values: ['Battery', 'Cordless'] },
        ],
        title: ['color', 'age_range'],
        features: ['Reaches 20 mph', 'All-terrain tires', 'Two batteries included', '2.4 GHz remote'],
      },
    ],
  },
  {
    name: 'office',
    label: 'Office Products',
    brands: ['Deskwise', 'Ledgerly', 'Quillmark', 'Officio', 'Paperkite'],
    adjectives: ['Ergonomic', 'Adjustable', 'Professional', 'Minimalist', 'Executive', 'Everyday', 'Compact'],
    categories: [
      {
        leaf: 'desk_chairs',
        nouns: ['Office Chair', 'Task Chair', 'Gaming Chair'],
        median: 150,
        attrs: [
          { name: 'color', values: ['Black', 'Gray', 'White', 'Blue', 'Red'] },
          { name: 'material', values: ['Mesh', 'Leather', 'Fabric'] },
        ],
        title: ['material', 'color'],
        features: ['Lumbar support', 'Adjustable armrests', '360° swivel', 'Supports 300 lb'],
      },
      {
        leaf: 'mousepads',
        nouns: ['Mouse Pad', 'Desk Mat'],
        median: 12,
        attrs: [
          { name: 'color', values: ['Black', 'Gray', 'Blue', 'Pink', 'Green'] },
          { name: 'size', values: ['Small', 'Medium', 'Large', 'XL'] },
          { name: 'material', values: ['Rubber', 'Leather', 'Fabric'] },
        ],
        title: ['size', 'color'],
        features: ['Non-slip base', 'Stitched edges', 'Smooth glide surface', 'Water resistant'],
      },
      {
        leaf: 'notebooks',
        nouns: ['Notebook', 'Journal', 'Planner'],
        median: 10,
        attrs: [
          { name: 'color', values: ['Black', 'Navy', 'Red', 'Green', 'Brown'] },
          { name: 'size', values: ['A5', 'A4', 'Pocket'] },
          { name: 'pack_count', values: ['1', '2', '3', '6'] },
        ],
        title: ['size', 'pack_count'],
        features: ['120 gsm paper', 'Lay-flat binding', 'Numbered pages', 'Elastic closure'],
      },
      {
        leaf: 'pens',
        nouns: ['Gel Pens', 'Ballpoint Pens', 'Fountain Pen'],
        median: 9,
        attrs: [
          { name: 'color', values: ['Black', 'Blue', 'Red', 'Multicolor'] },
          { name: 'pack_count', values: ['1', '5', '12', '24'] },
        ],
        title: ['color', 'pack_count'],
        features: ['Quick-drying ink', 'Comfort grip', 'Fine 0.5 mm point', 'Retractable'],
      },
      {
        leaf: 'desk_lamps',
        nouns: ['Desk Lamp', 'Task Light'],
        median: 30,
        attrs: [
          { name: 'color', values: ['Black', 'White', 'Silver', 'Gold'] },
          { name: 'power_source', values: ['Corded', 'Battery'] },
          { name: 'wattage', values: ['5', '10', '18', '20'] },
        ],
        title: ['wattage', 'color'],
        features: ['Dimmable LED', 'USB charging port', 'Adjustable arm', 'Eye-care light'],
      },
    ],
  },
  {
    name: 'tools',
    label: 'Tools & Home Improvement',
    brands: ['Forgeline', 'Torqmax', 'Steelridge', 'Buildcraft', 'Hammerton'],
    adjectives: ['Heavy-Duty', 'Professional', 'Compact', 'Precision', 'Rugged', 'Industrial'],
    categories: [
      {
        leaf: 'drills',
        nouns: ['Drill Driver', 'Hammer Drill', 'Impact Driver'],
        median: 80,
        attrs: [
          { name: 'voltage' },
          { name: 'power_source', values: ['Corded', 'Cordless'] },
          { name: 'color', values: ['Yellow', 'Red', 'Blue', 'Orange', 'Green'] },
        ],
        title: ['voltage', 'power_source'],
        features: ['Brushless motor', 'Two-speed gearbox', 'LED work light', 'Battery and charger included'],
      },
      {
        leaf: 'screwdrivers',
        nouns: ['Screwdriver Set', 'Electric Screwdriver'],
        median: 20,
        attrs: [
          { name: 'piece_count', values: ['6', '12', '24', '60'] },
          { name: 'material', values: ['Steel', 'Plastic', 'Rubber'] },
          { name: 'color', values: ['Red', 'Black', 'Yellow', 'Blue'] },
        ],
        title: ['piece_count'],
        features: ['Magnetic tips', 'Chrome vanadium steel', 'Storage case', 'Cushion grip'],
      },
      {
        leaf: 'tape_measures',
        nouns: ['Tape Measure', 'Measuring Tape'],
        median: 14,
        attrs: [
          { name: 'size', values: ['16 ft', '25 ft', '35 ft'] },
          { name: 'color', values: ['Yellow', 'Black', 'Orange'] },
        ],
        title: ['size'],
        features: ['Magnetic hook', 'Belt clip', 'Easy-read markings', 'Shock-absorbing case'],
      },
      {
        leaf: 'saws',
        nouns: ['Circular Saw', 'Hand Saw', 'Scroll Saw'],
        median: 60,
        attrs: [
          { name: 'power_source', values: ['Corded', 'Cordless', 'Manual'] },
          { name: 'voltage', p: 0.6 },
          { name: 'color', values: ['Yellow', 'Red', 'Blue', 'Orange'] },
        ],
        title: ['power_source'],
        features: ['Laser guide', 'Bevel adjustment', 'Dust blower', 'Carbide-tipped blade'],
      },
      {
        leaf: 'paint_supplies',
        nouns: ['Paint Roller', 'Paint Brush Set', 'Painters Tape'],
        median: 12,
        attrs: [
          { name: 'size', values: ['1 Inch', '2 Inch', '3 Inch', '9 Inch'] },
          { name: 'pack_count', values: ['1', '3', '5', '10'] },
          { name: 'material', values: ['Nylon', 'Polyester', 'Foam'] },
        ],
        title: ['size', 'pack_count'],
        features: ['Lint-free cover', 'Clean lines, no bleed', 'Ergonomic handle', 'Works with all paints'],
      },
      {
        leaf: 'tool_sets',
        nouns: ['Tool Set', 'Mechanic Tool Kit'],
        median: 70,
        attrs: [
          { name: 'piece_count', values: ['40', '65', '100', '150', '200'] },
          { name: 'material', values: ['Steel', 'Chrome Vanadium'] },
          { name: 'color', values: ['Black', 'Red', 'Blue'] },
        ],
        title: ['piece_count'],
        features: ['Blow-molded case', 'Ratchet and sockets', 'Lifetime warranty', 'Metric and SAE'],
      },
    ],
  },
  {
    name: 'furniture',
    label: 'Furniture',
    brands: ['Woodmere', 'Nordlund', 'Loftworks', 'Ashgrove', 'Casara'],
    adjectives: ['Modern', 'Rustic', 'Minimalist', 'Sturdy', 'Classic', 'Space-Saving', 'Contemporary'],
    categories: [
      {
        leaf: 'desks',
        nouns: ['Writing Desk', 'Standing Desk', 'Computer Desk'],
        median: 150,
        attrs: [
          { name: 'color', values: ['Black', 'White', 'Brown', 'Gray', 'Natural'] },
          { name: 'material', values: ['Wood', 'Steel', 'Glass', 'Bamboo'] },
          { name: 'style' },
        ],
        title: ['material', 'color'],
        features: ['Cable management tray', 'Scratch-resistant top', 'Tool-free assembly', 'Leveling feet'],
      },
      {
        leaf: 'bookshelves',
        nouns: ['Bookshelf', 'Bookcase'],
        median: 90,
        attrs: [
          { name: 'color', values: ['Black', 'White', 'Brown', 'Natural'] },
          { name: 'material', values: ['Wood', 'Steel', 'Bamboo'] },
          { name: 'style' },
        ],
        title: ['material', 'color'],
        features: ['Five shelves', 'Anti-tip hardware', 'Holds 50 lb per shelf', 'Adjustable shelves'],
      },
      {
        leaf: 'sofas',
        nouns: ['Sofa', 'Loveseat', 'Sectional'],
        median: 450,
        attrs: [
          { name: 'color', values: ['Gray', 'Beige', 'Navy', 'Green', 'Brown'] },
          { name: 'material', values: ['Linen', 'Leather', 'Velvet', 'Polyester'] },
          { name: 'style' },
        ],
        title: ['material', 'color'],
        features: ['High-density foam cushions', 'Removable covers', 'Solid wood frame', 'Ships in one box'],
      },
      {
        leaf: 'bed_frames',
        nouns: ['Bed Frame', 'Platform Bed'],
        median: 220,
        attrs: [
          { name: 'size', values: ['Twin', 'Full', 'Queen', 'King'] },
          { name: 'color', values: ['Black', 'White', 'Brown', 'Gray'] },
          { name: 'material', values: ['Wood', 'Steel', 'Upholstered'] },
        ],
        title: ['size', 'material'],
        features: ['No box spring needed', 'Under-bed storage space', 'Noise-free slats', 'Headboard included'],
      },
    ],
  },
  {
    name: 'pet_supplies',
    label: 'Pet Supplies',
    brands: ['Pawsome', 'Furhaven', 'Tailwind Pet', 'Barkley'],
    adjectives: ['Durable', 'Natural', 'Premium', 'Cozy', 'Interactive', 'Grain-Free'],
    categories: [
      {
        leaf: 'dog_food',
        nouns: ['Dry Dog Food', 'Wet Dog Food'],
        median: 35,
        attrs: [
          { name: 'flavor', values: ['Chicken', 'Beef', 'Salmon', 'Lamb'] },
          { name: 'weight_lb', values: ['5', '15', '30', '40'] },
        ],
        title: ['flavor', 'weight_lb'],
        features: ['Real meat first ingredient', 'No corn or soy', 'Omega fatty acids', 'Made in the USA'],
      },
      {
        leaf: 'pet_beds',
        nouns: ['Dog Bed', 'Cat Bed'],
        median: 35,
        attrs: [
          { name: 'size', values: ['Small', 'Medium', 'Large', 'XL'] },
          { name: 'color', values: ['Gray', 'Brown', 'Beige', 'Navy'] },
          { name: 'material', values: ['Fleece', 'Foam', 'Polyester'] },
        ],
        title: ['size', 'color'],
        features: ['Orthopedic foam', 'Machine-washable cover', 'Non-skid bottom', 'Raised bolsters'],
      },
      {
        leaf: 'leashes',
        nouns: ['Dog Leash', 'Harness'],
        median: 15,
        attrs: [
          { name: 'size', values: ['S', 'M', 'L'] },
          { name: 'color', values: ['Black', 'Red', 'Blue', 'Pink', 'Green'] },
          { name: 'material', values: ['Nylon', 'Leather', 'Rope'] },
        ],
        title: ['size', 'color'],
        features: ['Reflective stitching', 'Padded handle', 'Rust-proof clip', 'Tangle free'],
      },
    ],
  },
];

/** Denied categories (SPEC §1), as leaves of the "restricted" department. */
export const RESTRICTED: DepartmentDef = {
  name: 'restricted',
  label: 'Restricted',
  brands: ['Unbranded', 'Shadowline', 'Greymarket'],
  adjectives: ['Tactical', 'Discreet', 'Bulk', 'Covert'],
  categories: [
    {
      leaf: 'weapons',
      nouns: ['Combat Knife', 'Expandable Baton'],
      median: 40,
      attrs: [{ name: 'color', values: ['Black'] }],
      title: [],
      features: ['Restricted item'],
    },
    {
      leaf: 'firearms',
      nouns: ['Pistol', 'Rifle'],
      median: 500,
      attrs: [{ name: 'color', values: ['Black'] }],
      title: [],
      features: ['Restricted item'],
    },
    {
      leaf: 'ammunition',
      nouns: ['Ammo Box', 'Cartridges'],
      median: 30,
      attrs: [{ name: 'pack_count', values: ['50', '100'] }],
      title: ['pack_count'],
      features: ['Restricted item'],
    },
    {
      leaf: 'explosives',
      nouns: ['Blasting Caps', 'Detonator Cord'],
      median: 60,
      attrs: [],
      title: [],
      features: ['Restricted item'],
    },
    {
      leaf: 'adult_explicit',
      nouns: ['Explicit Video', 'Adult Magazine'],
      median: 20,
      attrs: [],
      title: [],
      features: ['Restricted item'],
    },
    {
      leaf: 'controlled_substances',
      nouns: ['Kratom Powder', 'Research Chemical'],
      median: 35,
      attrs: [],
      title: [],
      features: ['Restricted item'],
    },
    {
      leaf: 'tobacco',
      nouns: ['Cigarettes', 'Cigars', 'Pipe Tobacco'],
      median: 25,
      attrs: [],
      title: [],
      features: ['Restricted item'],
    },
    {
      leaf: 'counterfeit_goods',
      nouns: ['Replica Handbag', 'Replica Watch'],
      median: 45,
      attrs: [{ name: 'color', values: ['Black', 'Brown', 'Gold'] }],
      title: ['color'],
      features: ['Restricted item'],
    },
    {
      leaf: 'surveillance_equipment',
      nouns: ['Hidden Spy Camera', 'Hidden GPS Tracker'],
      median: 50,
      attrs: [{ name: 'color', values: ['Black'] }],
      title: [],
      features: ['Restricted item'],
    },
    {
      leaf: 'hazardous_materials',
      nouns: ['Industrial Solvent', 'Mercury Vial'],
      median: 40,
      attrs: [],
      title: [],
      features: ['Restricted item'],
    },
  ],
};
