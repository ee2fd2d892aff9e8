// Attribute vocabulary of the synthetic catalog. Values are kept in display case
// ("Black", "USB-C", "Stainless Steel"), exactly as a real catalog shows them;
// every comparison (filters, verifiers) is case-insensitive.

/** Attributes whose values are numbers in Product.attrs (the vocabulary lists them as strings). */
export const NUMERIC_ATTRS: ReadonlySet<string> = new Set([
  'wattage',
  'screen_size_in',
  'weight_lb',
  'voltage',
  'capacity_oz',
  'piece_count',
  'pack_count',
]);

/** Default vocabulary per attribute. A category may narrow or replace it (taxonomy-data.ts). */
export const DEFAULT_ATTR_VALUES: Readonly<Record<string, readonly string[]>> = {
  color: [
    'Black',
    'White',
    'Gray',
    'Silver',
    'Navy',
    'Blue',
    'Red',
    'Green',
    'Pink',
    'Purple',
    'Beige',
    'Brown',
    'Yellow',
    'Orange',
    'Gold',
    'Teal',
  ],
  size: ['XS', 'S', 'M', 'L', 'XL', 'XXL'],
  material: [
    'Cotton',
    'Polyester',
    'Wool',
    'Denim',
    'Leather',
    'Nylon',
    'Fleece',
    'Linen',
    'Stainless Steel',
    'Cast Iron',
    'Aluminum',
    'Ceramic',
    'Glass',
    'Plastic',
    'Bamboo',
    'Wood',
    'Silicone',
    'Mesh',
    'Foam',
    'Rubber',
    'Steel',
  ],
  connector_type: ['USB-C', 'Lightning', 'Micro-USB', 'USB-A', '3.5mm', 'HDMI', 'DisplayPort', 'Bluetooth'],
  wattage: ['5', '10', '18', '20', '30', '45', '65', '100', '140'],
  item_form: ['Cream', 'Lotion', 'Gel', 'Serum', 'Oil', 'Spray', 'Stick', 'Balm', 'Powder', 'Liquid', 'Bar', 'Foam'],
  skin_type: ['All', 'Dry', 'Oily', 'Combination', 'Sensitive', 'Normal'],
  finish_type: ['Matte', 'Satin', 'Glossy', 'Dewy', 'Natural', 'Shimmer'],
  screen_size_in: ['21.5', '24', '27', '32', '34', '43'],
  weight_lb: ['1', '2', '5', '10', '15', '20', '25', '30', '40', '50'],
  voltage: ['12', '18', '20', '40'],
  resolution: ['1080p', '1440p', '4K', '5K'],
  capacity_oz: ['12', '16', '20', '24', '32', '40', '64'],
  flavor: ['Original', 'Vanilla', 'Chocolate', 'Caramel', 'Hazelnut', 'Mint', 'Berry', 'Lemon', 'Sea Salt', 'Spicy'],
  roast_level: ['Light Roast', 'Medium Roast', 'Dark Roast', 'Espresso Roast'],
  scent: ['Unscented', 'Lavender', 'Citrus', 'Coconut', 'Rose', 'Eucalyptus', 'Vanilla Bean'],
  age_range: ['3+ Years', '5+ Years', '8+ Years', '12+ Years', 'Adult'],
  piece_count: ['100', '250', '500', '750', '1000', '1500', '2000'],
  pack_count: ['1', '2', '3', '4', '6', '12', '24'],
  fit: ['Slim', 'Regular', 'Relaxed', 'Athletic'],
  capacity: ['1-Person', '2-Person', '4-Person', '6-Person', '8-Person'],
  style: ['Modern', 'Traditional', 'Industrial', 'Farmhouse', 'Mid-Century', 'Scandinavian'],
  power_source: ['Corded', 'Cordless', 'Battery', 'Manual'],
  noise_control: ['Active Noise Cancelling', 'Passive', 'None'],
};

/** Unit suffix used when a numeric attribute appears in a title ("65W", "27-Inch"). */
const TITLE_UNIT: Readonly<Record<string, (v: string) => string>> = {
  wattage: (v) => `${v}W`,
  screen_size_in: (v) => `${v}-Inch`,
  weight_lb: (v) => `${v} lb`,
  voltage: (v) => `${v}V`,
  capacity_oz: (v) => `${v} oz`,
  piece_count: (v) => `${v} Pieces`,
  pack_count: (v) => (v === '1' ? '' : `Pack of ${v}`),
  size: (v) => `Size ${v}`,
  skin_type: (v) => (v === 'All' ? 'for All Skin Types' : `for ${v} Skin`),
  age_range: (v) => `Ages ${v}`,
};

/** How an attribute value reads inside a title. */
export function formatTitleSpec(attr: string, value: string): string {
  const f = TITLE_UNIT[attr];
  return f ? f(value) : value;
}
